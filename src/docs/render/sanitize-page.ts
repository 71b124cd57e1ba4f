import sanitizeHtml from "sanitize-html";

export type UrlRewriters = { link: (href: string) => string; image: (src: string) => string };

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"];

// Only what the renderer produces, plus the harmless raw HTML authors reach for (details, kbd, sup, sub).
const ALLOWED_TAGS = [
  ...HEADINGS,
  ...["p", "br", "hr", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "pre", "code", "span"],
  ...["a", "img", "div", "input", "del", "em", "strong", "sup", "sub", "details", "summary", "kbd"],
];

const ALLOWED_ATTRIBUTES: sanitizeHtml.IOptions["allowedAttributes"] = {
  ...Object.fromEntries(HEADINGS.map((tag) => [tag, ["id"]])),
  a: ["href", "title", "class", "aria-label", "rel"],
  img: ["src", "alt", "title", "class"],
  input: ["type", "checked", "disabled"],
  th: ["align"],
  td: ["align"],
  ol: ["start"],
  code: ["class"],
  span: ["class"],
  div: ["class"],
  p: ["class"],
  details: ["open"],
};

const ALLOWED_CLASSES = {
  // hljs 11 adds scope modifiers such as `function_` and `class_` beside `hljs-title`.
  // `language-*` marks a language hljs embeds in another (script in HTML).
  span: ["hljs-*", "*_", "language-*"],
  code: ["hljs", "language-*"],
  div: ["admonition", "admonition-*"],
  p: ["admonition-title"],
  img: ["diagram"],
  a: ["anchor"],
};

// Dropped with their content: none of it is prose a reader should see as text.
const NON_TEXT_TAGS = ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "svg", "math", "template", "title"];

const ABSOLUTE_HTTP = /^https?:/i;
// A scheme other than these is dropped before the page's link callback ever sees it.
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const LINK_SCHEMES = new Set(["http", "https", "mailto"]);

function rewriteHref(href: string, link: UrlRewriters["link"]): string | undefined {
  if (href.startsWith("#")) return href;
  // Browsers ignore control characters and whitespace inside a scheme (`java\tscript:`).
  const scheme = SCHEME.exec(href.replace(/[\u0000-\u0020]/g, ""))?.[1];
  return scheme === undefined || LINK_SCHEMES.has(scheme.toLowerCase()) ? link(href) : undefined;
}

function options(rewrite: UrlRewriters): sanitizeHtml.IOptions {
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedClasses: ALLOWED_CLASSES,
    // Relative URLs and fragments carry no scheme and always pass; data:, javascript:, vbscript: never do.
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https"] },
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    nonTextTags: NON_TEXT_TAGS,
    // Rewrites run before the scheme checks, so a rewriter's output is checked like the author's input.
    transformTags: {
      a: (tagName, { rel: _rel, ...attribs }) => {
        const url = attribs.href === undefined ? undefined : rewriteHref(attribs.href, rewrite.link);
        if (url === undefined) delete attribs.href;
        else attribs.href = url;
        return { tagName, attribs: url !== undefined && ABSOLUTE_HTTP.test(url.trim()) ? { ...attribs, rel: "noopener" } : attribs };
      },
      img: (tagName, attribs) => {
        // A diagram's src is already a site URL from options.diagram.
        if (attribs.src === undefined || attribs.class === "diagram") return { tagName, attribs };
        return { tagName, attribs: { ...attribs, src: rewrite.image(attribs.src) } };
      },
      // Only the task list's read-only checkbox, whatever the author wrote.
      input: (tagName, attribs) => ({ tagName, attribs: { type: "checkbox", disabled: "", ...("checked" in attribs ? { checked: "" } : {}) } }),
    },
  };
}

/** The page's HTML reduced to what the renderer produces, links and images rewritten to site URLs. */
export function sanitizePage(html: string, rewrite: UrlRewriters): string {
  return sanitizeHtml(html, options(rewrite));
}

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {}, nonTextTags: NON_TEXT_TAGS };

/** Plain text of an HTML fragment as written by an author (any tags, any entities), e.g. a heading's content. */
export function htmlToText(html: string): string {
  return decodeEscapes(sanitizeHtml(html, TEXT_ONLY)).trim();
}

// The heading anchors' "#" is not text of the page.
const ANCHOR = /<a class="anchor"[^>]*>#<\/a>/g;
const BLOCK_END = /<\/(?:p|h[1-6]|li|tr|th|td|pre|blockquote|div|details|summary)>|<br \/>|<hr \/>/g;
const TAG = /<[^>]*>/g;

/**
 * Plain text of sanitizePage's output (with highlighted code), one line per block, for full-text search. That
 * output is well-formed, its text escapes `<`, `>` (in attribute values too) and `&`, so a tag is exactly
 * `<...>` and only sanitize-html's and hljs's escapes are left to decode: a second parse would cost as much as the first.
 */
export function sanitizedHtmlToText(html: string): string {
  return decodeEscapes(html.replace(ANCHOR, "").replace(BLOCK_END, "$&\n").replace(TAG, ""))
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

function decodeEscapes(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
