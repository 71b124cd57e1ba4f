// User text is stored as people meant it, minus what no one types: lone surrogates (which no
// JSON or XML round trip keeps) and control characters (invisible, and forbidden in XML 1.0).
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const TEXT_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** One line (a title, a name): well-formed, control characters as spaces, trimmed. */
export function cleanLine(raw: string): string {
  return raw.toWellFormed().replace(LINE_CONTROLS, " ").trim();
}

/** Several lines (a comment): the same, keeping line breaks and tabs. */
export function cleanText(raw: string): string {
  return raw.toWellFormed().replace(/\r\n?/g, "\n").replace(TEXT_CONTROLS, " ").trim();
}
