import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { encodeDiagram, KROKI_TYPES } from "../../src/docs/render/diagram-key.ts";
import { parseFrontmatter } from "../../src/docs/render/frontmatter.ts";
import { highlightCode } from "../../src/docs/render/highlight-code.ts";
import { type RenderOptions, renderMarkdown } from "../../src/docs/render/render-markdown.ts";
import { sanitizePage } from "../../src/docs/render/sanitize-page.ts";
import { html, PLAIN, render, WITH_DIAGRAMS } from "./render.fixtures.ts";

/* What the docs renderer makes of a page: frontmatter, title, headings, GFM, code, admonitions, diagrams, links, search text. */

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
