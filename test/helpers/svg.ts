import { expect } from "bun:test";
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
