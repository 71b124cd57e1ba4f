import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { html, WITH_DIAGRAMS } from "./render.fixtures.ts";

/* A rendered document never runs script in the reader's browser, whatever its Markdown or HTML holds. */

// What the renderer itself may emit; anything else in the output came through the sanitizer by mistake.
const ALLOWED_ELEMENTS = new Set(
  "h1 h2 h3 h4 h5 h6 p br hr blockquote ul ol li table thead tbody tr th td pre code span a img div input del em strong sup sub details summary kbd".split(" "),
);
const URL_ATTRIBUTES = new Set(["href", "src"]);

/** The scheme a browser would follow `url` with on a page of the site (WHATWG URL parsing, as the browser does). */
function schemeOf(url: string): string | null {
  try {
    return new URL(url, "https://docs.example/guide/setup").protocol;
  } catch {
    return null;
  }
}

/** Fails unless `out` is inert: only allowed elements, no event handler or style attribute, no script-capable URL. */
function expectInert(out: string): void {
  expect(out).not.toMatch(/<\s*(?:script|iframe|svg|style|object|embed|form|math|base|meta|link)\b/i);
  const problems: string[] = [];
  new HTMLRewriter()
    .on("*", {
      element(element) {
        if (!ALLOWED_ELEMENTS.has(element.tagName)) problems.push(`element <${element.tagName}>`);
        for (const [name, value] of element.attributes) {
          if (/^on/i.test(name) || name === "style" || name === "srcset" || name === "formaction") problems.push(`attribute ${name}="${value}"`);
          const scheme = URL_ATTRIBUTES.has(name) ? schemeOf(value) : null;
          const allowed = element.tagName === "img" ? ["http:", "https:"] : ["http:", "https:", "mailto:"];
          if (scheme !== null && !allowed.includes(scheme)) problems.push(`${name}="${value}"`);
          if (URL_ATTRIBUTES.has(name) && /^[\u0000-\u0020]*[/\\]{2}/.test(value)) problems.push(`protocol-relative ${name}="${value}"`);
          if (element.tagName === "input" && name === "type" && value !== "checkbox") problems.push(`input type="${value}"`);
        }
        if (element.tagName === "input" && !element.hasAttribute("disabled")) problems.push("enabled <input>");
      },
    })
    .transform(out);
  expect(problems).toEqual([]);
}

describe("sanitizing: a document never runs script in the reader's browser", () => {
  const HOSTILE: { name: string; markdown: string; absent: string[] }[] = [
    { name: "a script element", markdown: "<script>alert(1)</script>", absent: ["<script", "alert(1)"] },
    { name: "an inline script tag in a paragraph", markdown: "Hi <script src=https://evil.example/x.js></script> there", absent: ["<script", "evil.example"] },
    { name: "an image with onerror", markdown: "<img src=x onerror=alert(1)>", absent: ["onerror"] },
    { name: "a javascript: Markdown link", markdown: "[click](javascript:alert(1))", absent: ["javascript:"] },
    { name: "a javascript: reference link", markdown: "[click][evil]\n\n[evil]: javascript:alert(1)", absent: ["javascript:"] },
    { name: "a javascript: autolink", markdown: "<javascript:alert(1)>", absent: ['href="javascript'] },
    { name: "a javascript: HTML link", markdown: '<a href="javascript:alert(1)">x</a>', absent: ["javascript:"] },
    {
      name: "an entity-encoded javascript: link",
      markdown: '<a href="jav&#x61;script:alert(1)">x</a> <a href="&#106;avascript:alert(2)">y</a>',
      absent: ["script:"],
    },
    {
      name: "a javascript: link with a tab and leading space",
      markdown: '<a href=" java\tscript:alert(1)">x</a> <a href="JaVaScRiPt:alert(1)">y</a>',
      absent: ["href"],
    },
    { name: "a vbscript: link", markdown: "[x](vbscript:msgbox(1))", absent: ["vbscript"] },
    { name: "an svg with onload", markdown: '<svg onload=alert(1)><circle r="9"/></svg>', absent: ["<svg", "onload", "<circle"] },
    {
      name: "an iframe",
      markdown: '<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe>',
      absent: ["<iframe", "srcdoc", "evil.example"],
    },
    {
      name: "a style attribute and a style element",
      markdown: '<p style="background:url(javascript:alert(1))">x</p><style>body{display:none}</style>',
      absent: ["style", "javascript:"],
    },
    { name: "a data: image in Markdown", markdown: "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)", absent: ["data:"] },
    { name: "a data: link in HTML", markdown: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', absent: ["data:"] },
    { name: "a comment closed early", markdown: "<!--><script>alert(1)</script>-->", absent: ["<script", "alert(1)</"] },
    { name: "a comment with a bogus end", markdown: "<!-- --!><img src=x onerror=alert(1)> -->", absent: ["onerror"] },
    {
      name: "an admonition title carrying HTML",
      markdown: ":::tip <img src=x onerror=alert(1)><script>alert(2)</script>\nbody\n:::",
      absent: ["onerror", "<script"],
    },
    { name: "a diagram type carrying HTML", markdown: '```mermaid"><script>alert(1)</script>\ngraph TD\n```', absent: ["<script"] },
    {
      name: "a code block closing its own element",
      markdown: "```js\n</code></pre><script>alert(1)</script>\n```\n\n```klingon\n</code><img src=x onerror=alert(1)>\n```",
      absent: ["<script", "<img"],
    },
    { name: "a heading carrying HTML", markdown: '## <img src=x onerror=alert(1)> Title <a href="javascript:x">l</a>', absent: ["onerror", "javascript:"] },
    {
      name: "a form with a text input",
      markdown:
        '<form action="https://evil.example"><input type="text" name="q" autofocus onfocus=alert(1)><button formaction="javascript:alert(1)">go</button></form>',
      absent: ["<form", "action", "onfocus", "autofocus", 'type="text"', "<button"],
    },
    {
      name: "object and embed",
      markdown: '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">',
      absent: ["<object", "<embed", "evil.example"],
    },
    { name: "MathML with an xlink:href", markdown: '<math><mi xlink:href="javascript:alert(1)">x</mi></math>', absent: ["<math", "xlink", "javascript:"] },
    { name: "a details element with ontoggle", markdown: "<details open ontoggle=alert(1)><summary>s</summary>x</details>", absent: ["ontoggle"] },
    {
      name: "base and meta refresh",
      markdown: '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      absent: ["<base", "<meta", "refresh"],
    },
    { name: "an img srcset", markdown: '<img src="https://ok.example/a.png" srcset="javascript:alert(1) 1x">', absent: ["srcset"] },
    {
      name: "protocol-relative links, slashes or backslashes",
      markdown: '[m](//evil.example) <a href="\\\\evil.example/x">a</a> <a href="/\\evil.example/x">b</a> <img src=" \\/evil.example/i.png">',
      absent: ["evil.example"],
    },
    {
      name: "an unknown class and an id on a div",
      markdown: '<div class="admonition evil" id="login" onclick="x">t</div>',
      absent: ["evil", "login", "onclick"],
    },
  ];

  for (const { name, markdown, absent } of HOSTILE) {
    it(`neutralizes ${name}`, () => {
      const out = html(markdown, WITH_DIAGRAMS);
      for (const fragment of absent) expect(out).not.toContain(fragment);
      expectInert(out);
    });
  }

  it("keeps arbitrary text mixed with hostile fragments inert", () => {
    const fragments = [
      ...HOSTILE.map((h) => h.markdown),
      "<",
      ">",
      '"',
      "'",
      "`",
      "```",
      ":::",
      ":::tip ",
      "\n",
      "](",
      "<a href=",
      "on",
      "=",
      "javascript:",
      "&#x",
    ];
    const piece = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...fragments));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom("", " ", "\n", "\n\n"), (pieces, separator) => {
        const out = html(pieces.join(separator), WITH_DIAGRAMS);
        expectInert(out);
        // Text is escaped, so these can only appear as markup.
        expect(out).not.toMatch(/<script|<iframe|<svg/i);
      }),
      { numRuns: 300 },
    );
  });
});
