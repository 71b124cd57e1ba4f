import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { COMMENT_LINK_REL, COMMENT_LINK_SCHEMES, COMMENT_TAGS, renderCommentMarkdown } from "../../src/workspace/comments/comment-markdown.ts";
import { RENDERED_COMMENTS, XSS_COMMENTS } from "./comment-markdown.fixtures.ts";

/** A `<` that does not open or close an element of the subset. */
const FOREIGN_TAG = new RegExp(`<(?!/?(?:${COMMENT_TAGS.join("|")})[\\s>/])`, "i");

type Element = { tag: string; attributes: [string, string][] };

/** Every element of an HTML fragment with its attributes, read by Bun's own HTML parser (lol-html), not by the sanitiser under test. */
async function elementsOf(html: string): Promise<Element[]> {
  const found: Element[] = [];
  await new HTMLRewriter()
    .on("*", { element: (el) => void found.push({ tag: el.tagName, attributes: [...el.attributes] as [string, string][] }) })
    .transform(new Response(html))
    .text();
  return found;
}

/** Why `html` could run something or leave the subset, or null when it is safe. */
async function unsafeIn(html: string): Promise<string | null> {
  for (const { tag, attributes } of await elementsOf(html)) {
    if (!(COMMENT_TAGS as readonly string[]).includes(tag)) return `tag <${tag}>`;
    const names = attributes.map(([name]) => name).sort();
    if (tag === "a") {
      if (names.length === 0) continue; // a link whose address was refused: inert text
      if (names.join() !== "href,rel,target") return `link attributes ${names.join()}`;
      const href = new URL(attributes.find(([n]) => n === "href")?.[1] as string);
      if (!(COMMENT_LINK_SCHEMES as readonly string[]).includes(href.protocol)) return `link scheme ${href.protocol}`;
      if (attributes.find(([n]) => n === "rel")?.[1] !== COMMENT_LINK_REL) return "link rel";
    } else if (tag === "ol") {
      if (names.some((n) => n !== "start") || attributes.some(([, v]) => !/^\d+$/.test(v))) return `ol attributes ${names.join()}`;
    } else if (names.length > 0) return `<${tag}> attributes ${names.join()}`;
  }
  return null;
}

describe("comment Markdown (issue 42)", () => {
  it.each(RENDERED_COMMENTS)("renders the subset: %j", (markdown, html) => {
    expect(renderCommentMarkdown(markdown)).toBe(html);
  });

  it.each(XSS_COMMENTS)("lets nothing executable through: %j", async (markdown) => {
    const html = renderCommentMarkdown(markdown);
    expect(await unsafeIn(html)).toBeNull();
    // Typed tags are shown as text: every `<` of the output opens an element of the subset.
    expect(html).not.toMatch(FOREIGN_TAG);
  });

  it("the checker finds what it is meant to find (it can fail)", async () => {
    expect(await unsafeIn('<img src="x" onerror="alert(1)">')).toBe("tag <img>");
    expect(await unsafeIn('<a href="javascript:alert(1)" rel="noopener noreferrer nofollow" target="_blank">x</a>')).toBe("link scheme javascript:");
    expect(await unsafeIn('<a href="https://x.example" rel="noopener" target="_blank">x</a>')).toBe("link rel");
    expect(await unsafeIn('<p onclick="x">y</p>')).toBe("<p> attributes onclick");
    expect("<p>ok</p><img src=x>").toMatch(FOREIGN_TAG);
    expect("<p>a &lt;b&gt;</p><br />").not.toMatch(FOREIGN_TAG);
  });

  it("keeps any mix of Markdown, HTML and script fragments within the subset (property)", async () => {
    const pieces = fc.constantFrom(
      ...["<", ">", '"', "'", "`", "```\n", "\n", "\n\n", "- ", "1. ", "**", "_", "~~", "[", "]", "(", ")", "![", "]("],
      ...["<script>", "</script>", "<img src=x onerror=alert(1)>", "<a href=", "javascript:", "JaVaScRiPt:", "data:text/html,", "&#106;", "&#58;"],
      ...["https://example.com/", "mailto:a@example.com", "//evil.example", " onmouseover=alert(1) ", "<svg/onload=alert(1)>", "<!--", "-->", "&lt;", "\\"],
    );
    const body = fc.array(fc.oneof(pieces, fc.string({ maxLength: 8 })), { maxLength: 16 }).map((parts) => parts.join(""));
    await fc.assert(
      fc.asyncProperty(body, async (markdown) => {
        const html = renderCommentMarkdown(markdown);
        expect(await unsafeIn(html)).toBeNull();
        expect(html).not.toMatch(FOREIGN_TAG);
      }),
      { numRuns: 400 },
    );
  });
});
