import { describe, expect, it } from "bun:test";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { decodeDiagram, encodeDiagram, KROKI_TYPES, MAX_DIAGRAM_SOURCE_BYTES } from "../../src/docs/render/diagram-key.ts";
import { parseFrontmatter } from "../../src/docs/render/frontmatter.ts";
import { highlightCode } from "../../src/docs/render/highlight-code.ts";
import { type RenderOptions, renderMarkdown } from "../../src/docs/render/render-markdown.ts";
import { sanitizePage } from "../../src/docs/render/sanitize-page.ts";

// Identity rewriters: what reaches the output is what the sanitizer let through, not what a callback masked.
const PLAIN: RenderOptions = { link: (href) => href, image: (src) => src, diagram: null };
const WITH_DIAGRAMS: RenderOptions = { ...PLAIN, diagram: (type, source) => `/docs/_diagram/${type}/${encodeDiagram(source)}.svg` };
const render = (markdown: string, options: RenderOptions = PLAIN) => renderMarkdown(markdown, "guide/setup.md", options);
const html = (markdown: string, options: RenderOptions = PLAIN) => render(markdown, options).html;

describe("frontmatter", () => {
  it("parses a leading YAML block and returns the body without it", () => {
    expect(parseFrontmatter("---\ntitle: Setup\nsidebar_position: 2\ntags: [a, b]\n---\n# Body\n")).toEqual({
      data: { title: "Setup", sidebar_position: 2, tags: ["a", "b"] },
      body: "# Body\n",
    });
  });

  it("tolerates a BOM and CRLF line ends", () => {
    expect(parseFrontmatter("\uFEFF---\r\ntitle: Windows\r\n---\r\nBody\r\n")).toEqual({ data: { title: "Windows" }, body: "Body\r\n" });
  });

  it("leaves a file without a block as it is (less a BOM)", () => {
    expect(parseFrontmatter("# Title\n\ntext")).toEqual({ data: {}, body: "# Title\n\ntext" });
    expect(parseFrontmatter("\uFEFF# Title")).toEqual({ data: {}, body: "# Title" });
  });

  it("gives empty data and drops the block when the YAML is malformed", () => {
    expect(parseFrontmatter("---\ntitle: [unclosed\n---\nBody")).toEqual({ data: {}, body: "Body" });
    expect(parseFrontmatter("---\na: 1\na: 2\n---\nBody")).toEqual({ data: {}, body: "Body" });
  });

  it("gives empty data for a block that is not a mapping", () => {
    expect(parseFrontmatter("---\n- a\n- b\n---\nBody").data).toEqual({});
    expect(parseFrontmatter("---\njust a string\n---\nBody").data).toEqual({});
    expect(parseFrontmatter("---\n---\nBody")).toEqual({ data: {}, body: "Body" });
  });

  it("accepts a file that is only frontmatter, and ignores a block that does not open the file", () => {
    expect(parseFrontmatter("---\ntitle: Only\n---")).toEqual({ data: { title: "Only" }, body: "" });
    expect(parseFrontmatter("\n---\ntitle: Late\n---\n").data).toEqual({});
  });

  it("keeps the frontmatter out of the rendered page", () => {
    const page = render("---\ntitle: Hidden\ndescription: secret words\n---\nVisible.");
    expect(page.frontmatter).toEqual({ title: "Hidden", description: "secret words" });
    expect(page.html).not.toContain("secret words");
    expect(page.text).toBe("Visible.");
  });
});

describe("title", () => {
  it("is the frontmatter title first", () => {
    expect(render("---\ntitle: From YAML\n---\n# From heading").title).toBe("From YAML");
  });

  it("is else the first h1's plain text", () => {
    expect(render("Intro\n\n## Second\n\n# The *real* &amp; `only` title\n\n# Another").title).toBe("The real & only title");
  });

  it("is else the file name without .md", () => {
    expect(renderMarkdown("## Not a title", "docs/guide/getting-started.md", PLAIN).title).toBe("getting-started");
    expect(renderMarkdown("", "README.MD", PLAIN).title).toBe("README");
    expect(renderMarkdown("---\ntitle: '  '\n---\ntext", "x.md", PLAIN).title).toBe("x");
  });
});

describe("headings", () => {
  it("get GitHub's ids, numbered when repeated", () => {
    const page = render("## Hello World\n\n## Hello World\n\n### Hello World\n\n## Hello World-1");
    expect(page.headings.map((h) => h.id)).toEqual(["hello-world", "hello-world-1", "hello-world-2", "hello-world-1-1"]);
  });

  it("slug the heading's text as GitHub does (punctuation dropped, case folded, Unicode kept)", () => {
    const ids = render("## A & B\n\n## The `render()` call\n\n## Über café!\n\n## *Emphasis* and [a link](x.md)").headings.map((h) => h.id);
    expect(ids).toEqual(["a--b", "the-render-call", "über-café", "emphasis-and-a-link"]);
  });

  it("list h2 to h4 for the table of contents, and every heading has an id and an anchor", () => {
    const page = render("# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six");
    expect(page.headings).toEqual([
      { depth: 2, text: "Two", id: "two" },
      { depth: 3, text: "Three", id: "three" },
      { depth: 4, text: "Four", id: "four" },
    ]);
    expect(page.html).toContain('<h1 id="one">One<a class="anchor" href="#one" aria-label="Link to this section">#</a></h1>');
    expect(page.html).toContain('<h6 id="six">Six<a class="anchor" href="#six" aria-label="Link to this section">#</a></h6>');
  });

  it("never hand a fragment anchor to the link callback", () => {
    const seen: string[] = [];
    render("## Title\n\n[up](#title)", { ...PLAIN, link: (href) => (seen.push(href), href) });
    expect(seen).toEqual([]);
  });
});

describe("GitHub Flavored Markdown", () => {
  it("renders tables with alignment", () => {
    const out = html("| Name | Count |\n|:-----|------:|\n| a | 1 |\n| b | 2 |");
    expect(out).toContain("<table>");
    expect(out).toContain('<th align="left">Name</th>');
    expect(out).toContain('<td align="right">2</td>');
  });

  it("renders task lists as read-only checkboxes", () => {
    const out = html("- [x] done\n- [ ] todo");
    expect(out).toContain('<li><input type="checkbox" disabled checked /> done</li>');
    expect(out).toContain('<li><input type="checkbox" disabled /> todo</li>');
  });

  it("renders strikethrough, autolinks and line structure", () => {
    const out = html("~~gone~~ and https://example.com and **bold** *em*\n\n---\n\n> quote");
    expect(out).toContain("<del>gone</del>");
    expect(out).toContain('<a href="https://example.com" rel="noopener">https://example.com</a>');
    expect(out).toContain("<strong>bold</strong> <em>em</em>");
    expect(out).toContain("<hr />");
    expect(out).toContain("<blockquote>\n<p>quote</p>\n</blockquote>");
  });

  it("keeps the harmless raw HTML authors use", () => {
    const out = html("<details><summary>More</summary>\n\nPress <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup>\n\n</details>");
    for (const tag of ["<details>", "<summary>More</summary>", "<kbd>Ctrl</kbd>", "<sub>2</sub>", "<sup>2</sup>"]) expect(out).toContain(tag);
  });
});

describe("code blocks", () => {
  it("highlight a registered language with hljs class spans", () => {
    const out = html("```ts\nconst answer: number = 42;\n```");
    expect(out).toStartWith('<pre><code class="hljs language-ts">');
    expect(out).toContain('<span class="hljs-keyword">const</span>');
    expect(out).toContain('<span class="hljs-number">42</span>');
  });

  it("highlight aliases and keep hljs scope modifiers", () => {
    expect(html("```sh\necho $HOME\n```")).toContain('<span class="hljs-built_in">echo</span>');
    expect(html("```yml\nkey: value\n```")).toContain('<span class="hljs-attr">key:</span>');
    expect(html("```js\nfunction go() {}\n```")).toContain('<span class="hljs-title function_">go</span>');
  });

  it("escape an unknown language as plain text, and read the language from the info string's first word", () => {
    const out = html("```klingon\n<b>Qapla'</b> & done\n```");
    expect(out).toBe('<pre><code class="hljs language-klingon">&lt;b&gt;Qapla&#39;&lt;/b&gt; &amp; done</code></pre>\n');
    expect(html("```\n<i>x</i>\n```")).toBe('<pre><code class="hljs">&lt;i&gt;x&lt;/i&gt;</code></pre>\n');
    expect(html('```python title="demo.py"\nprint(1)\n```')).toContain('<code class="hljs language-python"><span class="hljs-built_in">print</span>');
  });

  it("emit only escaped text and hljs spans, whatever the code holds, losing none of it", () => {
    const languages = ["ts", "js", "html", "xml", "markdown", "bash", "json", "yaml", "css", "php", "python", "sql", "klingon", ""];
    const code = fc.array(
      fc.oneof(fc.string(), fc.constantFrom("</code></pre><script>alert(1)</script>", '<span class="x" onclick=y>', "<!--", "`", "${", "'", '"', "\n")),
      {
        maxLength: 10,
      },
    );
    fc.assert(
      fc.property(fc.constantFrom(...languages), code, (language, pieces) => {
        const source = pieces.join("");
        const out = highlightCode(source, language);
        expect(out).toMatch(/^(?:[^<]+|<span class="[\w -]+">|<\/span>)*$/);
        const text = out
          .replace(/<[^>]*>/g, "")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&#x27;|&#39;/g, "'");
        expect(text.replace(/&amp;/g, "&")).toBe(source);
      }),
      { numRuns: 300 },
    );
  });
});

describe("admonitions", () => {
  const CASES = [
    ["note", "note", "Note"],
    ["tip", "tip", "Tip"],
    ["info", "info", "Info"],
    ["warning", "warning", "Warning"],
    ["caution", "warning", "Caution"],
    ["danger", "danger", "Danger"],
  ] as const;
  for (const [name, kind, title] of CASES) {
    it(`render :::${name} as a ${kind} box titled ${title}`, () => {
      expect(html(`:::${name}\nBe *careful*.\n:::`)).toBe(
        `<div class="admonition admonition-${kind}"><p class="admonition-title">${title}</p>\n<p>Be <em>careful</em>.</p>\n</div>\n`,
      );
    });
  }

  it("take a title after the type, in either of Docusaurus's spellings", () => {
    expect(html(":::tip Pro tip\nText\n:::")).toContain('<p class="admonition-title">Pro tip</p>');
    expect(html(":::tip[Pro **tip**]\nText\n:::")).toContain('<p class="admonition-title">Pro <strong>tip</strong></p>');
  });

  it("render their content as Markdown: lists, code, links, tables", () => {
    const out = html(":::info\n- one\n- [two](./two.md)\n\n```ts\nlet x = 1;\n```\n\n| a |\n|---|\n| 1 |\n:::\n\nAfter.");
    expect(out).toContain("<li>one</li>");
    expect(out).toContain('<a href="./two.md">two</a>');
    expect(out).toContain('<span class="hljs-keyword">let</span>');
    expect(out).toContain("<td>1</td>");
    expect(out).toEndWith("</div>\n<p>After.</p>\n");
  });

  it("nest, with more colons outside or with the same count", () => {
    const expected =
      '<div class="admonition admonition-note"><p class="admonition-title">Outer</p>\n<p>A</p>\n<div class="admonition admonition-danger"><p class="admonition-title">Inner</p>\n<p>B</p>\n</div>\n<p>C</p>\n</div>\n';
    expect(html("::::note Outer\nA\n\n:::danger Inner\nB\n:::\n\nC\n::::")).toBe(expected);
    expect(html(":::note Outer\nA\n\n:::danger Inner\nB\n:::\n\nC\n:::")).toBe(expected);
  });

  it("ignore ::: inside a fenced code block, leave unknown types as text, and run an unclosed box to the end", () => {
    expect(html(":::tip\n```\n:::\n```\nafter code\n:::")).toContain('<pre><code class="hljs">:::</code></pre>\n<p>after code</p>\n</div>');
    expect(html(":::unknown\ntext\n:::")).toBe("<p>:::unknown\ntext\n:::</p>\n");
    expect(html(":::warning\nno end")).toBe('<div class="admonition admonition-warning"><p class="admonition-title">Warning</p>\n<p>no end</p>\n</div>\n');
  });

  it("interrupt a paragraph and work inside a list item", () => {
    expect(html("Before\n:::note\nIn\n:::")).toBe(
      '<p>Before</p>\n<div class="admonition admonition-note"><p class="admonition-title">Note</p>\n<p>In</p>\n</div>\n',
    );
    expect(html("- item\n\n  :::tip\n  inside\n  :::")).toContain('<div class="admonition admonition-tip">');
  });
});

describe("diagrams", () => {
  it("render a Kroki fence as an image from options.diagram", () => {
    const calls: [string, string][] = [];
    const out = html("```mermaid\ngraph TD\n  A --> B\n```", { ...PLAIN, diagram: (type, source) => (calls.push([type, source]), `/d/${type}.svg?k=1&x=2`) });
    expect(calls).toEqual([["mermaid", "graph TD\n  A --> B"]]);
    expect(out).toBe('<p><img class="diagram" src="/d/mermaid.svg?k=1&amp;x=2" alt="mermaid diagram" /></p>\n');
  });

  it("cover every Kroki type, and do not pass the diagram through options.image", () => {
    const images: string[] = [];
    for (const type of KROKI_TYPES) {
      const out = html(`\`\`\`${type}\nsource\n\`\`\``, { ...WITH_DIAGRAMS, image: (src) => (images.push(src), src) });
      expect(out).toContain(`<img class="diagram" src="/docs/_diagram/${type}/${encodeDiagram("source")}.svg" alt="${type} diagram" />`);
    }
    expect(images).toEqual([]);
  });

  it("stay code blocks when diagrams are off", () => {
    expect(html("```plantuml\nBob -> Alice : hello\n```")).toBe('<pre><code class="hljs language-plantuml">Bob -&gt; Alice : hello</code></pre>\n');
  });

  it("drop a diagram URL with a forbidden scheme", () => {
    expect(html("```d2\na -> b\n```", { ...PLAIN, diagram: () => "javascript:alert(1)" })).toBe('<p><img class="diagram" alt="d2 diagram" /></p>\n');
  });
});

describe("links and images", () => {
  const rewriting: RenderOptions = { link: (href) => `/docs/resolved?to=${href}`, image: (src) => `/docs/_asset/${src}`, diagram: null };

  it("pass every link through options.link, Markdown and raw HTML alike", () => {
    const seen: string[] = [];
    const out = html('[setup](../guide/setup.md#x) [site](https://example.com/a) [mail](mailto:a@b.c) <a href="other.md">raw</a>', {
      ...rewriting,
      link: (href) => (seen.push(href), rewriting.link(href)),
    });
    expect(seen).toEqual(["../guide/setup.md#x", "https://example.com/a", "mailto:a@b.c", "other.md"]);
    expect(out).toContain('<a href="/docs/resolved?to=../guide/setup.md#x">setup</a>');
  });

  it("mark absolute http(s) links rel=noopener, whatever rel the author wrote", () => {
    const out = html('[a](https://example.com) [b](./b.md) [m](mailto:x@y.z) <a href="http://x.y" rel="opener">c</a>');
    expect(out).toContain('<a href="https://example.com" rel="noopener">a</a>');
    expect(out).toContain('<a href="./b.md">b</a>');
    expect(out).toContain('<a href="mailto:x@y.z">m</a>');
    expect(out).toContain('<a href="http://x.y" rel="noopener">c</a>');
  });

  it("pass every image through options.image, keeping alt and title", () => {
    const out = html('![A diagram](img/arch.png "Architecture") <img src="raw.png" alt="raw">', rewriting);
    expect(out).toContain('<img src="/docs/_asset/img/arch.png" alt="A diagram" title="Architecture" />');
    expect(out).toContain('<img src="/docs/_asset/raw.png" alt="raw" />');
  });

  it("never hand a javascript: or data: URL to a callback, and check what a callback returns", () => {
    const seen: string[] = [];
    const out = html("[x](javascript:alert(1)) [y](data:text/html,hi) [z](./ok.md)", { ...PLAIN, link: (href) => (seen.push(href), href) });
    expect(seen).toEqual(["./ok.md"]);
    expect(out).toBe('<p><a>x</a> <a>y</a> <a href="./ok.md">z</a></p>\n');
    expect(html("[x](./a.md) ![i](./i.png)", { ...PLAIN, link: () => "javascript:alert(1)", image: () => "data:image/png;base64,AA" })).toBe(
      '<p><a>x</a> <img alt="i" /></p>\n',
    );
  });
});

describe("plain text for search", () => {
  it("is the page's text without markup, one line per block, entities decoded", () => {
    const page = render(
      "---\ntitle: T\n---\n# Install &amp; run\n\nUse **npm** and `bun`.\n\n- one\n- two\n\n```ts\nconst x = 1 < 2 && 'a' > \"b\";\n```\n\n:::tip Hint\nRead <kbd>this</kbd>.\n:::",
    );
    expect(page.text).toBe("Install & run\nUse npm and bun.\none\ntwo\nconst x = 1 < 2 && 'a' > \"b\";\nHint\nRead this.");
  });

  it("leaves out what the sanitizer dropped", () => {
    expect(render("Safe <script>alert('x')</script> text <style>p{}</style>").text).toBe("Safe  text");
  });
});

describe("sanitizePage on rendered output (as translated pages are re-sanitized)", () => {
  it("keeps every element and attribute the renderer produced", () => {
    const page = html(
      '# T\n\n:::tip[Hi]\n- [x] done\n:::\n\n```html\n<div onclick="go()">x</div><script>let a = 1;</script>\n```\n\n```mermaid\nA\n```\n\n| a |\n|:-:|\n| [l](https://x.y) |',
      WITH_DIAGRAMS,
    );
    const tags = (markup: string) => markup.match(/<[^>]*>/g);
    expect(page).toContain('<span class="language-javascript">');
    expect(tags(sanitizePage(page, PLAIN))).toEqual(tags(page));
  });
});

describe("diagram keys (Kroki's GET encoding)", () => {
  it("match Python's base64.urlsafe_b64encode(zlib.compress(source, 9)), without padding", () => {
    expect(encodeDiagram("Bob -> Alice : hello")).toBe("eNpzyk9S0LVTcMzJTE5VsFLISM3JyQcAPHcGKw");
    expect(decodeDiagram("eNpzyk9S0LVTcMzJTE5VsFLISM3JyQcAPHcGKw==")).toBe("Bob -> Alice : hello");
    expect(decodeDiagram("eNpLL0osyFAIceFSUHCMdjm8Mqm0JFZBV9dOwan68Jy8w-uT81NSFR7NmVwLAC8dECY=")).toBe("graph TD\n  A[Début] --> B{Ünïcode ✓}");
  });

  it("round-trip any source", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 2000 }), (source) => {
        const key = encodeDiagram(source);
        expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
        // Lone surrogates are not UTF-8: they come back as U+FFFD, as any UTF-8 transport would make them.
        expect(decodeDiagram(key)).toBe(Buffer.from(source, "utf8").toString("utf8"));
      }),
    );
  });

  it("decode garbage to null", () => {
    const notZlib = Buffer.from("plain text, not deflated").toString("base64url");
    const notUtf8 = deflateSync(Buffer.from([0xff, 0xfe, 0xc3])).toString("base64url");
    for (const key of ["", "!!!!", "eNpz yk9S", "eNpzyk9S0LVTcMzJTE5VsFLISM3JyQcAPHc", notZlib, notUtf8, "a/b+c", "="]) {
      expect(decodeDiagram(key)).toBeNull();
    }
    fc.assert(fc.property(fc.string(), (key) => decodeDiagram(key) === null || encodeDiagram(decodeDiagram(key)!).length > 0));
  });

  it("refuse a key that inflates beyond 64 KiB", () => {
    expect(decodeDiagram(encodeDiagram("a".repeat(MAX_DIAGRAM_SOURCE_BYTES)))).toHaveLength(MAX_DIAGRAM_SOURCE_BYTES);
    expect(decodeDiagram(encodeDiagram("a".repeat(MAX_DIAGRAM_SOURCE_BYTES + 1)))).toBeNull();
    expect(decodeDiagram(deflateSync(Buffer.alloc(50 * 1024 * 1024)).toString("base64url"))).toBeNull();
  });
});

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

describe("speed", () => {
  it("renders a typical 10 KB page in a few milliseconds", () => {
    const section = (n: number) =>
      `## Section ${n}\n\nSome *prose* with a [link](../other-${n}.md) and \`code\`, more words to make a paragraph of a typical length here.\n\n- item one\n- item two with **bold**\n\n\`\`\`ts\nexport function f${n}(x: number): number {\n  return x * ${n}; // comment\n}\n\`\`\`\n\n| a | b |\n|---|---|\n| ${n} | two |\n\n:::tip\nA hint.\n:::\n\n`;
    let page = "---\ntitle: Bench\n---\n# Bench\n\n";
    for (let n = 0; page.length < 10_000; n++) page += section(n);
    for (let i = 0; i < 20; i++) render(page, WITH_DIAGRAMS);
    const runs = 50;
    const started = performance.now();
    for (let i = 0; i < runs; i++) render(page, WITH_DIAGRAMS);
    const mean = (performance.now() - started) / runs;
    // The target is well under 5 ms on a developer machine; the bound leaves room for a loaded CI runner.
    expect(mean).toBeLessThan(25);
  });
});
