import { describe, expect, it } from "bun:test";
import { Marked, type TokenizerAndRendererExtension } from "marked";
import { admonitions } from "../../src/docs/render/admonitions.ts";
import { type RenderOptions, renderMarkdown } from "../../src/docs/render/render-markdown.ts";

const PLAIN: RenderOptions = { link: (href) => href, image: (src) => src, diagram: null };
// Six boxes, each inside the last: as deep as a page may nest them (deeper ones stay text).
const DEEP = `${":::note\n".repeat(6)}Deep.\n${":::\n".repeat(6)}`;
const boxes = (html: string) => html.match(/class="admonition /g)?.length ?? 0;

describe("admonitions: each render counts its own open boxes", () => {
  it("renders a page alike when another render is inside a box at the time", () => {
    const alone = renderMarkdown(DEEP, "deep.md", PLAIN).html;
    expect(boxes(alone)).toBe(6);
    let during = "";
    // Renders the page while the outer render's lexer is one box deep.
    const probe: TokenizerAndRendererExtension = {
      name: "probe",
      level: "block",
      start: (src) => (src.includes("%probe") ? src.indexOf("%probe") : undefined),
      tokenizer(src) {
        const line = /^%probe\n/.exec(src);
        if (!line) return undefined;
        during = renderMarkdown(DEEP, "deep.md", PLAIN).html;
        return { type: "probe", raw: line[0] };
      },
      renderer: () => "",
    };
    const outer = new Marked({ extensions: [admonitions(), probe] }).parse(":::tip\n%probe\n:::\n", { async: false });
    expect(boxes(outer)).toBe(1);
    expect(during).toBe(alone);
  });
});
