import { parse } from "yaml";

// The block must open on the first line; `---` closes it (Jekyll, Docusaurus, MkDocs all agree).
const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/**
 * Splits a leading YAML frontmatter block from a Markdown file. A malformed block, or one that is not a
 * mapping, yields empty data; the body never contains the block. A BOM and CRLF line ends are tolerated.
 */
export function parseFrontmatter(markdown: string): { data: Record<string, unknown>; body: string } {
  const source = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
  const match = BLOCK.exec(source);
  if (!match) return { data: {}, body: source };
  return { data: parseMapping(match[1] ?? ""), body: source.slice(match[0].length) };
}

function parseMapping(yaml: string): Record<string, unknown> {
  try {
    // logLevel "error": a YAML error throws (and is caught here), a warning is not printed to the log.
    const value: unknown = parse(yaml, { logLevel: "error" });
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
