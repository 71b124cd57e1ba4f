import { expect } from "bun:test";
import fc from "fast-check";
import { SaxesParser } from "saxes";

export type XmlNode = { name: string; attrs: Record<string, string>; children: XmlNode[]; text: string };

// saxes is a conforming XML 1.0 parser: it throws on disallowed characters, undefined
// entities, "]]>" in text, unbalanced tags and duplicate attributes.
export function parseSvg(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true });
  const root: XmlNode = { name: "#document", attrs: {}, children: [], text: "" };
  const stack = [root];
  parser.on("opentag", (tag) => {
    const attrs = Object.fromEntries(Object.values(tag.attributes).map((a) => [a.name, a.value]));
    const node: XmlNode = { name: tag.name, attrs, children: [], text: "" };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on("text", (text) => void (stack.at(-1)!.text += text));
  parser.on("closetag", () => void stack.pop());
  parser.write(xml).close();
  expect(root.children).toHaveLength(1);
  const svg = root.children[0]!;
  expect(svg.name).toBe("svg");
  expect(svg.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
  return svg;
}
export const descendants = (node: XmlNode): XmlNode[] => node.children.flatMap((child) => [child, ...descendants(child)]);
export const elements = (node: XmlNode, name: string) => descendants(node).filter((n) => n.name === name);

/**
 * Text built to break SVG output: markup, CDATA ends, entities, control and lone-surrogate
 * characters, emoji sequences, whitespace; mixed with arbitrary binary and UTF-16 strings.
 */
const HOSTILE_PIECES = [
  "<script>alert(1)</script>",
  "]]>",
  "<![CDATA[",
  '"',
  "'",
  "&",
  "&amp;",
  "&#x41;",
  "<",
  ">",
  "\u0000",
  "\u0007",
  "\u001f",
  "\u007f",
  "\u0085",
  "\ud800",
  "\udfff",
  "\ufffe",
  "\uffff",
  "é",
  "😀",
  "👩‍👩‍👧",
  "漢字",
  " ",
  "\n",
  "\t",
  "\r\n",
  "a",
  "W",
];

export const hostileTextOf = (pieceRun: number, anyRun: number) =>
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...HOSTILE_PIECES), maxLength: pieceRun }),
    fc.string({ unit: "binary", maxLength: anyRun }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: anyRun }),
  );
