import { onFirstUse } from "../../shared/on-first-use.ts";
import { svgLibraries } from "./svg-libraries.ts";

const ELLIPSIS = "\u2026";

// XML 1.0 section 2.2 (Char) forbids C0 controls other than tab, LF and CR, lone
// surrogates and U+FFFE/U+FFFF; C1 controls are legal but never meant for display.
const NOT_DISPLAYABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** User text made safe to place in XML: characters XML cannot carry removed, whitespace runs collapsed (SVG collapses them anyway), trimmed. Escaping is still needed. */
export function toSvgText(raw: string): string {
  return raw
    .replace(NOT_DISPLAYABLE, "")
    .replace(/[\t\n\r ]+/g, " ")
    .trim();
}

/** Escapes &, <, >, " and ' for text and attribute values. */
export function escapeXml(text: string): string {
  // XML's predefined &apos; rather than Bun's numeric reference, as badge-maker writes
  // it, so both images read back alike even in parsers that skip character references.
  return Bun.escapeHTML(text).replaceAll("&#x27;", "&apos;");
}

/** Rendered width in px for Verdana at `fontSize`, from anafanafo's measured tables (11px normal, 10px bold) scaled linearly. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  const { measure } = svgLibraries();
  return bold ? (measure(text, { font: "bold 10px Verdana" }) * fontSize) / 10 : (measure(text, { font: "11px Verdana" }) * fontSize) / 11;
}

/** Made on the first long text: an Intl.Segmenter loads ICU's break rules, memory most starts never need. */
const graphemes = onFirstUse(() => new Intl.Segmenter("en", { granularity: "grapheme" }));

/** `text` unchanged when it fits `maxWidth`, else its longest grapheme prefix that fits with a trailing ellipsis. */
export function fitText(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const parts = Array.from(graphemes().segment(text), (part) => part.segment);
  const cut = (length: number) => parts.slice(0, length).join("").trimEnd() + ELLIPSIS;
  let low = 0;
  let high = parts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (textWidth(cut(middle), fontSize, bold) <= maxWidth) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}
