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

/** One line fit for a mail header (a subject, a name): as cleanLine, without line or paragraph separators, at most `max` characters. */
export function headerLine(raw: string, max = 80): string {
  const line = cleanLine(raw).replace(/[\u2028\u2029]/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
