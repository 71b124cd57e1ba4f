import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

// A comment's Markdown as HTML (issue 42): the docs site's own marked and sanitize-html, reduced to
// what a comment needs. Only types may be imported from this module elsewhere: comment-html.ts loads
// it with the first comment shown.

/** Bold, italic, strikethrough, code, links, lists and line breaks; nothing else survives. */
export const COMMENT_TAGS = ["p", "br", "strong", "em", "del", "code", "pre", "a", "ul", "ol", "li"] as const;
export const COMMENT_LINK_SCHEMES = ["http:", "https:", "mailto:"] as const;
/** User content links out: no opener access, no referrer, no search-ranking credit. */
export const COMMENT_LINK_REL = "noopener noreferrer nofollow";

const off = () => undefined;

/**
 * The parser, made per call as the docs renderer does (it costs next to nothing beside a parse).
 * Block and inline syntax outside the subset is not parsed at all, so it stays the text that was
 * typed ("# Title", "> quote", "<b>", a table's pipes) instead of losing its markers.
 */
const commentMarked = () =>
  new Marked(
    { gfm: true, breaks: true, async: false },
    {
      tokenizer: { heading: off, lheading: off, blockquote: off, hr: off, html: off, table: off, tag: off, def: off },
      renderer: {
        // A link whose address is not absolute http(s) or mailto keeps only its text.
        link({ href, tokens }) {
          const text = this.parser.parseInline(tokens);
          const safe = safeHref(href);
          return safe === undefined ? text : `<a href="${Bun.escapeHTML(safe)}">${text}</a>`;
        },
        // No images: a comment could make every reader's browser fetch a tracker. The alt text stays.
        image: ({ text }) => Bun.escapeHTML(text),
        // A task item keeps its box as text; a form control has no place in a comment.
        checkbox: ({ checked }) => (checked ? "[x] " : "[ ] "),
      },
    },
  );

/** An absolute http(s) or mailto URL, else undefined: relative, protocol-relative and script URLs never link. */
function safeHref(href: string | undefined): string | undefined {
  // Browsers ignore control characters and spaces inside a scheme (`java\tscript:`).
  const bare = href?.replace(/[\u0000-\u0020]/g, "");
  if (bare === undefined || !URL.canParse(bare)) return undefined;
  const url = new URL(bare);
  return (COMMENT_LINK_SCHEMES as readonly string[]).includes(url.protocol) ? url.href : undefined;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...COMMENT_TAGS],
  allowedAttributes: { a: ["href", "rel", "target"], ol: ["start"] },
  allowedSchemes: COMMENT_LINK_SCHEMES.map((s) => s.slice(0, -1)),
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // Whatever the renderer let through by mistake is dropped with its content, not shown as code.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "svg", "math", "template", "title", "img"],
  transformTags: {
    // The renderer already dropped unsafe links; this holds even if it did not. The tag name never
    // changes here: sanitize-html would then rename every later closing </a> as well.
    a: (tagName, given) => {
      const href = safeHref(given.href);
      const attribs: sanitizeHtml.Attributes = href === undefined ? {} : { href, rel: COMMENT_LINK_REL, target: "_blank" };
      return { tagName, attribs };
    },
  },
};

/** A comment's text as safe HTML in the subset above. */
export function renderCommentMarkdown(text: string): string {
  return sanitizeHtml(commentMarked().parse(text, { async: false }), SANITIZE).trim();
}
