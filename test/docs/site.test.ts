import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { docsSources } from "../../src/docs/sources/sources.table.ts";
import { updateDocsSettings } from "../../src/docs/settings/docs-settings.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { addSource, deliver, getPage, type GitHubStandIn, githubStandIn, krokiStandIn, pushPayload, served } from "./docs.fixtures.ts";

const SECRET = "site test secret";
const clock = manualClock(Date.parse("2025-06-01T08:00:00Z"));
let gh: GitHubStandIn;
let kroki: ReturnType<typeof krokiStandIn>;
let app: TestApp;
let admin: SignedUp;
let member: SignedUp;

beforeAll(async () => {
  gh = githubStandIn();
  kroki = krokiStandIn();
  app = await startApp({ env: { DOCS_WEBHOOK_SECRET: SECRET }, overrides: { clock, outbound: { allowLoopback: true } } });
  admin = await signUp(app, "admin");
});
afterAll(async () => {
  await app.stop();
  gh.stop();
  kroki.stop();
});

const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
const FEATURES = `# Features

Read the [alpha page](alpha.md#part-two) or [the CLI](reference/cli.md).

## Install it

Some text.

## Install it

Again, the same heading.

:::warning[Careful now]
Mind the **gap**.
:::

:::note
No title given.
:::

\`\`\`ts
const port: number = 3000;
\`\`\`

\`\`\`nosuchlanguage
<b>kept as text</b>
\`\`\`

| Name | Size |
|:-----|-----:|
| one  |    1 |
| two  |   22 |

![The logo](img/logo.svg)
![A picture](./img/picture.png "Picture title")
`;

/** The sidebar as its labels in order, nested entries indented by two spaces per level. */
function sidebarLabels(html: string): string[] {
  const start = html.indexOf('<nav class="sidebar"');
  const nav = html.slice(start, html.indexOf("</nav>", start));
  const labels: string[] = [];
  let depth = -1;
  for (const m of nav.matchAll(/<ul>|<\/ul>|<a href="[^"]*"[^>]*>(?:<strong>)?([^<]*)|<span class="folder">([^<]*)/g)) {
    if (m[0] === "<ul>") depth++;
    else if (m[0] === "</ul>") depth--;
    else labels.push(`${"  ".repeat(depth)}${m[1] ?? m[2]}`);
  }
  return labels;
}
const articleOf = (html: string) => html.slice(html.indexOf("<article>"), html.indexOf("</article>"));
const localesNav = (html: string) => {
  const start = html.indexOf('<nav class="locales"');
  return start < 0 ? "" : html.slice(start, html.indexOf("</nav>", start));
};

describe("the site: pages from the repository (spec 3 section 1.3)", () => {
  beforeAll(async () => {
    gh.repo("acme/site", {
      "README.md": "# Not part of the docs\n",
      "docs/en/index.md": "---\ntitle: Welcome\nsidebar_position: 1\n---\n# Welcome to the handbook\n\nStart here.\n",
      "docs/en/zeta.md": "---\nsidebar_position: 2\nsidebar_label: Getting started\n---\n# Zeta\n",
      "docs/en/alpha.md": "# Alpha\n\n## Part two\n",
      "docs/en/features.md": FEATURES,
      "docs/en/draft.md": "---\ndraft: true\n---\n# Not yet\n",
      "docs/en/reference/_category_.json": JSON.stringify({ label: "API reference", position: 3 }),
      "docs/en/reference/api.md": "# API\n",
      "docs/en/reference/cli.md": "---\nsidebar_position: 1\n---\n# CLI\n",
      "docs/en/tutorials/basics.md": "# Basics\n",
      "docs/en/img/logo.svg": SVG,
      "docs/en/img/picture.png": PNG,
      "docs/en/notes.txt": "not a page",
      "docs/fr/index.md": "---\nsidebar_position: 1\n---\n# Bienvenue\n\nCommencez ici.\n",
      "docs/fr/reference/_category_.json": JSON.stringify({ label: "Référence", position: 3 }),
    });
    gh.put("acme/site", "docs/en/features.md", FEATURES, { name: "Grace Hopper", login: "grace", date: "2025-04-30T16:20:00Z" });
    await addSource(app, admin, { slug: "site", name: "Site", kind: "github", full_name: "acme/site", locales: ["en", "fr"], default_locale: "en" }, gh.url);
  });

  it("renders a page: status 200, its title, the page CSP and the HTML lifetime in Cache-Control", async () => {
    const res = await getPage(app, "/docs/site/en/features");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.html).toContain("<title>Features · Site</title>");
    expect(res.html).toContain('<html lang="en">');
    expect(res.html).not.toContain("<script");
  });

  it("shows the last-updated date and author from the commits API", async () => {
    const article = articleOf((await getPage(app, "/docs/site/en/features")).html);
    expect(article).toContain('<time datetime="2025-04-30T16:20:00Z">2025-04-30</time> by grace</p>');
  });

  it("orders the sidebar by sidebar_position, then label; labels from sidebar_label, title or the first heading; folders from _category_.json", async () => {
    expect(sidebarLabels((await getPage(app, "/docs/site/en/")).html)).toEqual([
      "Welcome",
      "Getting started",
      "API reference",
      "  CLI",
      "  API",
      "Alpha",
      "Features",
      "Tutorials",
      "  Basics",
    ]);
  });

  it("builds the fr sidebar from fr's pages, fr's _category_.json and en's pages fr lacks, linking in fr", async () => {
    const html = (await getPage(app, "/docs/site/fr/")).html;
    expect(sidebarLabels(html)).toEqual(["Bienvenue", "Getting started", "Référence", "  CLI", "  API", "Alpha", "Features", "Tutorials", "  Basics"]);
    expect(html).toContain('<a href="/docs/site/fr/reference/cli">CLI</a>');
    expect(html).not.toContain('href="/docs/site/en/reference/cli"');
  });

  it("shows a page fr lacks in en, with the fallback notice; fr's own page has none", async () => {
    const fallback = await getPage(app, "/docs/site/fr/alpha");
    expect(fallback.status).toBe(200);
    expect(fallback.html).toContain('<html lang="fr">');
    expect(articleOf(fallback.html)).toContain('<p class="notice" role="note">This page is not available in français yet; it is shown in English.</p>');
    expect(articleOf(fallback.html)).toContain('<h1 id="alpha">Alpha');
    const own = await getPage(app, "/docs/site/fr/");
    expect(articleOf(own.html)).toContain("Commencez ici.");
    expect(own.html).not.toContain('class="notice"');
    expect((await getPage(app, "/docs/site/en/alpha")).html).not.toContain('class="notice"');
  });

  it("links each locale's version of the same page in the locale switcher, the current one marked", async () => {
    const nav = localesNav((await getPage(app, "/docs/site/fr/reference/cli")).html);
    expect(nav).toContain('<a href="/docs/site/en/reference/cli" hreflang="en" lang="en">English</a>');
    expect(nav).toContain('<a href="/docs/site/fr/reference/cli" hreflang="fr" lang="fr" aria-current="true">français</a>');
  });

  it("sends an address without a locale to the default locale's page", async () => {
    const res = await getPage(app, "/docs/site/reference/cli");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/docs/site/en/reference/cli");
    expect((await getPage(app, "/docs/site")).headers.get("location")).toBe("/docs/site/");
  });

  it("gives headings ids and anchors (repeats numbered) and a table of contents", async () => {
    const html = (await getPage(app, "/docs/site/en/features")).html;
    const headings = [...html.matchAll(/<h2 id="([^"]+)">Install it<a class="anchor" ([^>]*)>#<\/a><\/h2>/g)].map((m) => [
      m[1],
      /href="([^"]*)"/.exec(m[2] ?? "")?.[1],
    ]);
    expect(headings).toEqual([
      ["install-it", "#install-it"],
      ["install-it-1", "#install-it-1"],
    ]);
    expect(html).toContain('<li class="d2"><a href="#install-it">Install it</a></li><li class="d2"><a href="#install-it-1">Install it</a></li>');
  });

  it("turns links to Markdown files into page URLs of the locale", async () => {
    expect(articleOf((await getPage(app, "/docs/site/en/features")).html)).toContain(
      'Read the <a href="/docs/site/en/alpha#part-two">alpha page</a> or <a href="/docs/site/en/reference/cli">the CLI</a>.',
    );
    expect(articleOf((await getPage(app, "/docs/site/fr/features")).html)).toContain('<a href="/docs/site/fr/alpha#part-two">alpha page</a>');
  });

  it("renders admonitions with their titles", async () => {
    const article = articleOf((await getPage(app, "/docs/site/en/features")).html);
    expect(article).toContain(
      '<div class="admonition admonition-warning"><p class="admonition-title">Careful now</p>\n<p>Mind the <strong>gap</strong>.</p>\n</div>',
    );
    expect(article).toContain('<div class="admonition admonition-note"><p class="admonition-title">Note</p>\n<p>No title given.</p>\n</div>');
  });

  it("highlights code of a known language, and escapes code of an unknown one", async () => {
    const article = articleOf((await getPage(app, "/docs/site/en/features")).html);
    expect(article).toContain(
      '<pre><code class="hljs language-ts"><span class="hljs-keyword">const</span> <span class="hljs-attr">port</span>: <span class="hljs-built_in">number</span> = <span class="hljs-number">3000</span>;</code></pre>',
    );
    expect(article).toContain('<pre><code class="hljs language-nosuchlanguage">&lt;b&gt;kept as text&lt;/b&gt;</code></pre>');
  });

  it("renders tables with their alignment", async () => {
    const article = articleOf((await getPage(app, "/docs/site/en/features")).html);
    expect(article.replace(/\n/g, "")).toContain(
      '<table><thead><tr><th align="left">Name</th><th align="right">Size</th></tr></thead><tbody><tr><td align="left">one</td><td align="right">1</td></tr><tr><td align="left">two</td><td align="right">22</td></tr></tbody></table>',
    );
  });

  it("serves the repository's pictures under /docs/<slug>/_files/ with their type and a sandboxing CSP", async () => {
    const article = articleOf((await getPage(app, "/docs/site/en/features")).html);
    expect(article).toContain('<img src="/docs/site/_files/docs/en/img/logo.svg" alt="The logo" />');
    expect(article).toContain('<img src="/docs/site/_files/docs/en/img/picture.png" alt="A picture" title="Picture title" />');
    const png = await fetch(`${app.url}/docs/site/_files/docs/en/img/picture.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(PNG);
    const svg = await fetch(`${app.url}/docs/site/_files/docs/en/img/logo.svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(await svg.text()).toBe(SVG);
  });

  it("serves nothing of the repository but pictures: not Markdown, not other files, not a missing picture", async () => {
    for (const path of ["docs/en/features.md", "docs/en/notes.txt", "docs/en/img/missing.png", "README.md"]) {
      const res = await fetch(`${app.url}/docs/site/_files/${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });

  it("hides draft pages from the sidebar; a page that does not exist is a 404 page with the sidebar", async () => {
    expect(sidebarLabels((await getPage(app, "/docs/site/en/")).html)).not.toContain("Not yet");
    const missing = await getPage(app, "/docs/site/en/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
    expect(sidebarLabels(missing.html)).toContain("Getting started");
    expect((await getPage(app, "/docs/nosuchsource/")).status).toBe(404);
  });
});

describe("spec 3 section 8: cache lifetimes", () => {
  it("rendered HTML lives 60 s by default: a render setting changed shows only once that has passed", async () => {
    updateDocsSettings(app.ctx, { kroki_url: "" }, { trusted: true });
    gh.repo("acme/ttl-html", { "docs/index.md": "# Flow\n\n```mermaid\ngraph LR; A-->B\n```\n" });
    await addSource(app, admin, { slug: "ttl-html", name: "TTL", kind: "github", full_name: "acme/ttl-html" }, gh.url);
    const diagram = async () => articleOf((await getPage(app, "/docs/ttl-html/")).html).includes('<img class="diagram"');
    expect(await diagram()).toBe(false);
    updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
    clock.advance(60_000 - 1);
    expect(await diagram()).toBe(false);
    clock.advance(1);
    expect(await diagram()).toBe(true);
  });

  it("DOCS_HTML_TTL_SECONDS sets Cache-Control's max-age and the rendered HTML's lifetime", async () => {
    const short = await startApp({ env: { DOCS_HTML_TTL_SECONDS: "5" }, overrides: { clock, outbound: { allowLoopback: true } } });
    try {
      const shortAdmin = await signUp(short, "admin");
      gh.repo("acme/ttl-env", { "docs/index.md": "# Flow\n\n```mermaid\ngraph LR; A-->B\n```\n" });
      await addSource(short, shortAdmin, { slug: "ttl-env", name: "TTL", kind: "github", full_name: "acme/ttl-env" }, gh.url);
      const first = await getPage(short, "/docs/ttl-env/");
      expect(first.headers.get("cache-control")).toBe("public, max-age=5");
      expect(first.html).not.toContain('<img class="diagram"');
      updateDocsSettings(short.ctx, { kroki_url: kroki.url }, { trusted: true });
      clock.advance(5_000 - 1);
      expect((await getPage(short, "/docs/ttl-env/")).html).not.toContain('<img class="diagram"');
      clock.advance(1);
      expect((await getPage(short, "/docs/ttl-env/")).html).toContain('<img class="diagram"');
    } finally {
      await short.stop();
    }
  });

  it("raw Markdown lives 5 minutes: the page is rendered again from the cached text until then, then fetched", async () => {
    gh.repo("acme/ttl-raw", { "docs/index.md": "# Home\n\nFirst text.\n" });
    await addSource(app, admin, { slug: "ttl-raw", name: "TTL", kind: "github", full_name: "acme/ttl-raw" }, gh.url);
    expect((await getPage(app, "/docs/ttl-raw/")).html).toContain("First text.");
    gh.put("acme/ttl-raw", "docs/index.md", "# Home\n\nSecond text.\n");
    const before = gh.hits();
    clock.advance(5 * 60_000 - 1);
    // The HTML (60 s) is long gone: rendered again, from the raw text still cached.
    expect((await getPage(app, "/docs/ttl-raw/")).html).toContain("First text.");
    expect(served(before, gh.hits())).toEqual({});
    clock.advance(1);
    // Five minutes: the text (and the tree, of the same lifetime) are fetched again...
    await getPage(app, "/docs/ttl-raw/");
    expect(served(before, gh.hits())).toEqual({ "tree:acme/ttl-raw": 1, "raw:acme/ttl-raw:docs/index.md": 1 });
    // ...and the page shows it once the HTML rendered a moment before has lived its 60 s.
    clock.advance(60_000);
    expect((await getPage(app, "/docs/ttl-raw/")).html).toContain("Second text.");
    expect(served(before, gh.hits())).toEqual({ "tree:acme/ttl-raw": 1, "raw:acme/ttl-raw:docs/index.md": 1 });
  });
});

describe("search (spec 3 section 8: FTS5)", () => {
  beforeAll(async () => {
    gh.repo("acme/search", {
      "docs/animals.md": "# Animals\n\nThe zebra and the quokka meet at the café.\n\nAn inequality: x < y & z, said the zebra.\n",
      "docs/plants.md": "# Plants\n\nThe baobab grows slowly.\n",
      "docs/tokyo.md": "# Cities\n\n東京 is a city.\n",
    });
    await addSource(app, admin, { slug: "search", name: "Search", kind: "github", full_name: "acme/search" }, gh.url);
  });
  const search = async (q: string) => getPage(app, `/docs/search/_search?q=${encodeURIComponent(q)}`);
  const results = (html: string) => [...html.matchAll(/<li><a href="([^"]+)">[^<]*<\/a><p>/g)].map((m) => m[1]);

  it("lists matching pages with a snippet marking the words, the text escaped", async () => {
    const res = await search("zebra");
    expect(res.status).toBe(200);
    expect(results(res.html)).toEqual(["/docs/search/animals"]);
    expect(res.html).toContain("The <mark>zebra</mark> and the quokka meet at the café.");
    expect((await search("inequality")).html).toContain("An <mark>inequality</mark>: x &lt; y &amp; z, said the zebra.");
    expect(res.html).toContain('<input type="search" name="q"');
    expect(res.html).toContain('value="zebra"');
  });

  it("matches the last word as a prefix, and words without their accents", async () => {
    expect(results((await search("quok")).html)).toEqual(["/docs/search/animals"]);
    expect(results((await search("cafe")).html)).toEqual(["/docs/search/animals"]);
    expect(results((await search("baobab slow")).html)).toEqual(["/docs/search/plants"]);
    expect(results((await search("東京")).html)).toEqual(["/docs/search/tokyo"]);
  });

  it("says so when nothing matches, and asks for words when the query has none", async () => {
    expect((await search("unicorn")).html).toContain("No page matches <strong>unicorn</strong>.");
    expect((await search("")).html).toContain("Type a word or two to search.");
  });

  it("takes FTS5 syntax as plain words: quotes, parentheses, NEAR, *, column filters, unicode; never a 5xx", async () => {
    const queries = [
      '"',
      '"zebra',
      "zebra)",
      "(zebra",
      "NEAR(zebra quokka)",
      "NEAR(zebra quokka, 2)",
      "*",
      "zebra*",
      "-zebra",
      "title:zebra",
      "^zebra",
      "zebra AND",
      "OR",
      "NOT",
      "{title body}: zebra",
      "zebra + quokka",
      "'; DROP TABLE docs_search; --",
      "\\",
      "🦓",
      "zé\u0301bra",
      "\u0000zebra",
      "x".repeat(1000),
      Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "),
    ];
    for (const q of queries) {
      const res = await search(q);
      expect({ q, status: res.status, type: res.headers.get("content-type") }).toEqual({ q, status: 200, type: "text/html; charset=utf-8" });
    }
    for (const q of ['"zebra"', "(zebra)", "zebra*", "-zebra", "^zebra", "{zebra}", "zebra)"])
      expect({ q, found: results((await search(q)).html) }).toEqual({ q, found: ["/docs/search/animals"] });
  });

  it("answers 404 for a source that does not exist", async () => {
    expect((await getPage(app, "/docs/nosuchsource/_search?q=zebra")).status).toBe(404);
  });
});

describe("diagrams through the Kroki stand-in (spec 3 section 8: 7 days)", () => {
  let src = "";
  beforeAll(async () => {
    updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
    gh.repo("acme/diagrams", { "docs/index.md": "# Diagrams\n\n```mermaid\nsequenceDiagram\n  Alice->>Bob: Hi <b>Bob</b>\n```\n" });
    await addSource(app, admin, { slug: "diagrams", name: "Diagrams", kind: "github", full_name: "acme/diagrams" }, gh.url);
    src = /<img class="diagram" src="([^"]+)"/.exec((await getPage(app, "/docs/diagrams/")).html)?.[1] ?? "";
  });

  it("renders a diagram block as an image whose key encodes the source, rendered by Kroki", async () => {
    expect(src).toMatch(/^\/docs\/_diagrams\/mermaid\/[A-Za-z0-9_.-]+\.svg$/);
    const renders = kroki.renders.length;
    const res = await fetch(app.url + src);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get("cache-control")).toBe("public, max-age=604800, immutable");
    expect(await res.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"><text>sequenceDiagram\n  Alice-&gt;&gt;Bob: Hi &lt;b&gt;Bob&lt;/b&gt;</text></svg>');
    expect(kroki.renders.slice(renders)).toEqual([{ type: "mermaid", source: "sequenceDiagram\n  Alice->>Bob: Hi <b>Bob</b>" }]);
  });

  it("keeps a render 7 days: Kroki is not asked again before, and is after", async () => {
    const renders = kroki.renders.length;
    await fetch(app.url + src);
    expect(kroki.renders).toHaveLength(renders);
    clock.advance(7 * 86_400_000 - 1);
    expect((await fetch(app.url + src)).status).toBe(200);
    expect(kroki.renders).toHaveLength(renders);
    clock.advance(1);
    expect((await fetch(app.url + src)).status).toBe(200);
    expect(kroki.renders).toHaveLength(renders + 1);
  });

  it("answers 404, without asking Kroki, for a diagram no page of the site has, another type, and when Kroki is off", async () => {
    const renders = kroki.renders.length;
    const file = src.split("/").pop() as string;
    const [key, mac] = file.split(".");
    // A well-formed key (zlib, base64url) of a diagram no page has, under the MAC of another.
    const forged = deflateSync("graph TD; X-->Y", { level: 9 }).toString("base64url");
    for (const path of [
      `nosuchtype/${file}`,
      `plantuml/${file}`,
      "mermaid/not-a-key.svg",
      `mermaid/${key}.svg`,
      `mermaid/${key}.${"A".repeat((mac as string).length)}.svg`,
      `mermaid/${forged}.${mac}.svg`,
    ])
      expect({ path, status: (await fetch(`${app.url}/docs/_diagrams/${path}`)).status }).toEqual({ path, status: 404 });
    expect(kroki.renders).toHaveLength(renders);
    updateDocsSettings(app.ctx, { kroki_url: "" }, { trusted: true });
    try {
      expect((await fetch(app.url + src)).status).toBe(404);
    } finally {
      updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
    }
  });
});

describe("a document never runs script in the reader's browser", () => {
  it("drops script, event handlers, javascript: and data: links, frames, styles and forms", async () => {
    gh.repo("acme/hostile", {
      "docs/index.md": [
        "# Hostile",
        "",
        "<script>alert(1)</script>",
        "",
        "[plain](javascript:alert(2)) [mixed case](JaVaScRiPt:alert(3)) [entity](java&#x09;script:alert(4)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==)",
        "",
        '<a href="javascript:alert(6)">raw link</a> <a href=" javascript:alert(7)">spaced</a> <a href="vbscript:msgbox(8)">vb</a>',
        "",
        '<img src="x.png" onerror="alert(9)"> <div onclick="alert(10)" style="color:red">div</div>',
        "",
        '<iframe src="https://evil.example/"></iframe><object data="x.swf"></object><embed src="x.swf">',
        "",
        "<svg><script>alert(11)</script></svg><math><mi>x</mi></math>",
        "",
        "<style>body { display: none }</style>",
        "",
        '<form action="https://evil.example/"><input name="password"><button formaction="javascript:alert(12)">go</button></form>',
        "",
        '<meta http-equiv="refresh" content="0;url=https://evil.example/"><base href="https://evil.example/">',
        "",
        "![img](javascript:alert(13))",
        "",
        "Last line.",
      ].join("\n"),
    });
    await addSource(app, admin, { slug: "hostile", name: "Hostile", kind: "github", full_name: "acme/hostile" }, gh.url);
    const res = await getPage(app, "/docs/hostile/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
    const article = articleOf(res.html);
    for (const bad of [
      "<script",
      "javascript",
      "vbscript",
      "data:text",
      "onerror",
      "onclick",
      "style=",
      "<iframe",
      "<object",
      "<embed",
      "<svg",
      "<math",
      "<style",
      "<form",
      "formaction",
      "<meta",
      "<base",
      "alert(",
    ])
      expect({ bad, found: article.toLowerCase().includes(bad) }).toEqual({ bad, found: false });
    // The prose stays: the links' words, the div's text, the last line.
    for (const text of [">plain</a>", ">mixed case</a>", ">raw link</a>", "div", "Last line."]) expect(article).toContain(text);
    expect(res.html).not.toContain("<script");
  });
});

describe("an unreadable repository: a 404 page, never a 5xx", () => {
  it("answers 404 pages while the repository answers 500, and reads it again once it is back", async () => {
    gh.repo("acme/flaky", { "docs/index.md": "# Flaky\n\nBack again.\n", "docs/img/p.png": PNG });
    await addSource(app, admin, { slug: "flaky", name: "Flaky", kind: "github", full_name: "acme/flaky" }, gh.url);
    for (const status of [500, 502, 403, 404]) {
      gh.failWith("acme/flaky", status);
      for (const path of ["/docs/flaky/", "/docs/flaky/some/page", "/docs/flaky/_search?q=flaky", "/docs/flaky/_files/docs/img/p.png"]) {
        const res = await getPage(app, path);
        expect({ status, path, answered: res.status }).toEqual({ status, path, answered: 404 });
      }
      expect((await getPage(app, "/docs/flaky/")).html).toContain("This page cannot be read from its repository right now.");
    }
    // A failure is not cached.
    gh.failWith("acme/flaky", null);
    const back = await getPage(app, "/docs/flaky/");
    expect(back.status).toBe(200);
    expect(back.html).toContain("Back again.");
  });

  it("answers 404 pages when nothing listens at the repository's API base", async () => {
    gh.repo("acme/down", { "docs/index.md": "# Down\n" });
    await addSource(app, admin, { slug: "down", name: "Down", kind: "github", full_name: "acme/down" }, `http://127.0.0.1:${freePort()}`);
    for (const path of ["/docs/down/", "/docs/down/_search?q=down", "/docs/down/_files/docs/img/p.png"]) {
      const res = await getPage(app, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });

  it("refuses a repository API on this machine without the test switch: the outbound guard, a 404 page", async () => {
    const guarded = await startApp({ overrides: { clock } });
    try {
      const guardedAdmin = await signUp(guarded, "admin");
      await addSource(guarded, guardedAdmin, { slug: "guarded", name: "Guarded", kind: "github", full_name: "acme/site" }, gh.url);
      const before = gh.requests.length;
      expect((await getPage(guarded, "/docs/guarded/")).status).toBe(404);
      expect(gh.requests).toHaveLength(before);
    } finally {
      await guarded.stop();
    }
  });
});

describe("a local folder as a source", () => {
  const folder = tempDir("cairn-docs-local-");
  const write = (path: string, content: string | Uint8Array) => {
    mkdirSync(join(folder, path, ".."), { recursive: true });
    writeFileSync(join(folder, path), content);
  };
  let id = "";
  beforeAll(async () => {
    write("docs/index.md", "---\ntitle: Local home\n---\n# Local home\n\nFrom the disk.\n\n![pic](img/pic.png)\n");
    write("docs/guide.md", "---\nsidebar_position: 1\n---\n# Guide\n");
    write("docs/img/pic.png", PNG);
    write("docs/.hidden.md", "# Hidden\n");
    write("secret.md", "# Outside the docs root\n");
    id = (await addSource(app, admin, { slug: "local", name: "Local", kind: "local", local_path: folder, docs_root: "docs" })).id;
  });

  it("serves its pages, sidebar and pictures from the folder", async () => {
    const home = await getPage(app, "/docs/local/");
    expect(home.status).toBe(200);
    expect(articleOf(home.html)).toContain("From the disk.");
    expect(sidebarLabels(home.html)).toEqual(["Guide", "Local home"]);
    const pic = await fetch(`${app.url}/docs/local/_files/docs/img/pic.png`);
    expect(pic.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await pic.arrayBuffer())).toEqual(PNG);
    for (const path of [
      "/docs/local/.hidden",
      "/docs/local/_files/secret.md",
      "/docs/local/_files/..%2Fsecret.md",
      "/docs/local/_files/docs%2F..%2F..%2Fetc%2Fpasswd",
    ])
      expect({ path, status: (await getPage(app, path)).status }).toEqual({ path, status: 404 });
  });

  it("is never touched by the webhook: a push naming any repository is `repo not configured`, its cache stays", async () => {
    await getPage(app, "/docs/local/guide");
    const sizes = async () => (await admin.browser.json("GET", "/api/docs/sources")).data.sources.find((s: { id: string }) => s.id === id).cache;
    const before = await sizes();
    write("docs/index.md", "---\ntitle: Local home\n---\n# Local home\n\nChanged on disk.\n");
    for (const name of ["local", "local/docs", folder, "/docs"]) {
      const res = await deliver(app, "push", pushPayload(name, [{ modified: ["docs/index.md", "index.md"] }]), { secret: SECRET });
      expect({ name, status: res.status, data: res.data }).toEqual({ name, status: 200, data: "repo not configured" });
    }
    expect(await sizes()).toEqual(before);
    expect(articleOf((await getPage(app, "/docs/local/")).html)).toContain("From the disk.");
  });

  it("is read again by the admin's refresh", async () => {
    write("docs/added.md", "# Added later\n");
    expect(sidebarLabels((await getPage(app, "/docs/local/")).html)).not.toContain("Added later");
    expect((await admin.browser.json("POST", `/api/docs/sources/${id}/refresh`)).status).toBe(200);
    const home = await getPage(app, "/docs/local/");
    expect(sidebarLabels(home.html)).toContain("Added later");
    expect(articleOf(home.html)).toContain("Changed on disk.");
  });
});

describe("the admin API (/api/docs)", () => {
  beforeAll(async () => {
    // Signed up now: the diagrams' seven days have ended sessions made at the start.
    member = await signUp(app, "member");
  });
  /** A PATCH of a source the test pointed at the stand-in: checked as an https source, then pointed back. */
  const patchSource = async (id: string, body: Record<string, unknown>) => {
    app.ctx.db.update(docsSources).set({ apiBase: "https://example.invalid" }).where(eq(docsSources.id, id)).run();
    const res = await admin.browser.json("PATCH", `/api/docs/sources/${id}`, body);
    app.ctx.db.update(docsSources).set({ apiBase: gh.url }).where(eq(docsSources.id, id)).run();
    return res;
  };
  const sourcesOf = async () => (await admin.browser.json("GET", "/api/docs/sources")).data;

  it("is for site admins only: 403 for a member, 401 without a session", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/docs/sources"],
      ["POST", "/api/docs/sources", { slug: "x", name: "X", kind: "github", full_name: "a/b" }],
      ["PATCH", "/api/docs/sources/whatever", { name: "Y" }],
      ["DELETE", "/api/docs/sources/whatever"],
      ["POST", "/api/docs/sources/whatever/refresh"],
      ["GET", "/api/docs/settings"],
      ["PATCH", "/api/docs/settings", { kroki_url: "" }],
    ];
    for (const [method, path, body] of calls) {
      const res = await member.browser.json(method, path, body);
      expect({ method, path, status: res.status, error: res.data.error }).toEqual({ method, path, status: 403, error: "forbidden" });
      expect({ method, path, status: (await app.client().json(method, path, body)).status }).toEqual({ method, path, status: 401 });
    }
    expect((await member.browser.json("GET", "/api/docs/sources")).data).not.toHaveProperty("sources");
  });

  it("adds a source (201), answering the token only as token_set; the token goes to the hosting service", async () => {
    gh.repo("acme/private", { "docs/index.md": "# Private\n" });
    const res = await admin.browser.json("POST", "/api/docs/sources", {
      slug: "private",
      name: "Private docs",
      kind: "github",
      full_name: "Acme/Private",
      branch: "main",
      docs_root: "/docs/",
      api_base: "https://ghe.example.invalid/api/v3/",
      token: "ghp_topsecret123",
    });
    expect(res.status).toBe(201);
    expect(res.data.source).toEqual({
      id: expect.any(String),
      slug: "private",
      name: "Private docs",
      kind: "github",
      full_name: "acme/private",
      branch: "main",
      docs_root: "docs",
      api_base: "https://ghe.example.invalid/api/v3",
      token_set: true,
      local_path: null,
      locales: [],
      default_locale: "en",
      url: `${app.url}/docs/private`,
      created_at: clock.now(),
    });
    const listed = await admin.browser.json("GET", "/api/docs/sources");
    expect(JSON.stringify(listed.data)).not.toContain("ghp_topsecret123");
    expect(JSON.stringify(res.data)).not.toContain("ghp_topsecret123");
    const id = res.data.source.id as string;
    expect(listed.data.sources.find((s: { id: string }) => s.id === id).token_set).toBe(true);
    // Pointed at the stand-in, the pages are read with the token.
    app.ctx.db.update(docsSources).set({ apiBase: gh.url }).where(eq(docsSources.id, id)).run();
    const from = gh.requests.length;
    expect((await getPage(app, "/docs/private/")).status).toBe(200);
    const sent = gh.requests.slice(from);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.authorization === "Bearer ghp_topsecret123")).toBe(true);
    // "" clears it.
    const cleared = await patchSource(id, { token: "" });
    expect(cleared.data.source.token_set).toBe(false);
    const after = gh.requests.length;
    expect((await getPage(app, "/docs/private/")).status).toBe(200);
    expect(gh.requests.slice(after).every((r) => r.authorization === null)).toBe(true);
  });

  it("refuses invalid sources with 400 (and a taken slug with 409)", async () => {
    const valid = { slug: "valid", name: "Valid", kind: "github", full_name: "acme/valid" };
    const invalid: Record<string, unknown>[] = [
      { ...valid, slug: "Not a slug!" },
      { ...valid, slug: "-starts-with-dash" },
      { ...valid, slug: "x".repeat(41) },
      { ...valid, name: "" },
      { ...valid, name: "   " },
      { ...valid, kind: "gitlab" },
      { ...valid, full_name: "no-slash" },
      { ...valid, full_name: "a/b/c" },
      { ...valid, branch: "../main" },
      { ...valid, branch: "a..b" },
      { ...valid, docs_root: "../outside" },
      { ...valid, docs_root: "docs/./x" },
      { ...valid, api_base: "http://api.github.com" },
      { ...valid, api_base: "https://user:pass@api.github.com" },
      { ...valid, api_base: "not a url" },
      { ...valid, locales: ["english"] },
      { ...valid, locales: ["en", "fr"], default_locale: "de" },
      { ...valid, slug: 5 },
      { ...valid, locales: "en" },
      { slug: "local-bad", name: "Local", kind: "local", local_path: "relative/path" },
      { slug: "local-bad", name: "Local", kind: "local", local_path: "/no/such/folder/anywhere" },
      { slug: "local-bad", name: "Local", kind: "local", local_path: join(tempDir(), "missing") },
    ];
    for (const body of invalid) {
      const res = await admin.browser.json("POST", "/api/docs/sources", body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await admin.browser.json("POST", "/api/docs/sources", "{not json", {})).status).toBe(400);
    expect((await admin.browser.json("POST", "/api/docs/sources", valid)).status).toBe(201);
    const taken = await admin.browser.json("POST", "/api/docs/sources", { ...valid, full_name: "acme/other" });
    expect(taken.status).toBe(409);
    expect((await sourcesOf()).sources.filter((s: { slug: string }) => s.slug === "valid")).toHaveLength(1);
  });

  it("changes a source (PATCH): checked like a new one, its cache dropped, the pages read from the new branch", async () => {
    gh.repo("acme/branches", { "docs/index.md": "# Main\n\nOn main.\n" });
    const source = await addSource(app, admin, { slug: "branches", name: "Branches", kind: "github", full_name: "acme/branches" }, gh.url);
    expect(articleOf((await getPage(app, "/docs/branches/")).html)).toContain("On main.");
    expect((await patchSource(source.id, { branch: "a..b" })).status).toBe(400);
    expect((await patchSource(source.id, { kind: "svn" })).status).toBe(400);
    expect((await patchSource(source.id, { api_base: "http://api.github.com" })).status).toBe(400);
    expect((await admin.browser.json("PATCH", "/api/docs/sources/nosuchid", { name: "X" })).status).toBe(404);
    gh.repo("acme/branches", { "docs/index.md": "# Next\n\nOn next.\n" }, "next");
    const res = await patchSource(source.id, { branch: "next", name: "Branches (next)" });
    expect(res.status).toBe(200);
    expect(res.data.source).toMatchObject({ id: source.id, branch: "next", name: "Branches (next)", slug: "branches", full_name: "acme/branches" });
    expect((await sourcesOf()).sources.find((s: { id: string }) => s.id === source.id).cache).toEqual([]);
    expect(articleOf((await getPage(app, "/docs/branches/")).html)).toContain("On next.");
  });

  it("refreshes a source: its whole cache dropped ({dropped}), the pages fetched again", async () => {
    gh.repo("acme/refresh", { "docs/index.md": "# Refresh\n\nBefore.\n", "docs/other.md": "# Other\n" });
    const source = await addSource(app, admin, { slug: "refresh", name: "Refresh", kind: "github", full_name: "acme/refresh" }, gh.url);
    await getPage(app, "/docs/refresh/");
    const cache = (await sourcesOf()).sources.find((s: { id: string }) => s.id === source.id).cache as { kind: string; entries: number; bytes: number }[];
    // One page read: the tree, both texts (the sidebar reads titles), one page's metadata and HTML, one sidebar.
    expect(cache.map(({ kind, entries }) => ({ kind, entries })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "html", entries: 1 },
      { kind: "meta", entries: 1 },
      { kind: "raw", entries: 2 },
      { kind: "sidebar", entries: 1 },
      { kind: "tree", entries: 1 },
    ]);
    for (const entry of cache) expect(entry.bytes).toBeGreaterThan(0);
    gh.put("acme/refresh", "docs/index.md", "# Refresh\n\nAfter.\n");
    expect(articleOf((await getPage(app, "/docs/refresh/")).html)).toContain("Before.");
    const res = await admin.browser.json("POST", `/api/docs/sources/${source.id}/refresh`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ dropped: 6 });
    expect(articleOf((await getPage(app, "/docs/refresh/")).html)).toContain("After.");
    expect((await admin.browser.json("POST", "/api/docs/sources/nosuchid/refresh")).status).toBe(404);
  });

  it("deletes a source: its pages are gone, a second delete is 404", async () => {
    gh.repo("acme/gone", { "docs/index.md": "# Gone\n" });
    const source = await addSource(app, admin, { slug: "gone", name: "Gone", kind: "github", full_name: "acme/gone" }, gh.url);
    expect((await getPage(app, "/docs/gone/")).status).toBe(200);
    const res = await admin.browser.json("DELETE", `/api/docs/sources/${source.id}`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true });
    expect((await getPage(app, "/docs/gone/")).status).toBe(404);
    expect((await sourcesOf()).sources.some((s: { id: string }) => s.id === source.id)).toBe(false);
    expect((await admin.browser.json("DELETE", `/api/docs/sources/${source.id}`)).status).toBe(404);
    // Its repository is no longer configured.
    expect((await deliver(app, "push", pushPayload("acme/gone", [{ modified: ["docs/index.md"] }]), { secret: SECRET })).data).toBe("repo not configured");
  });

  it("shows the webhook URL, whether a secret is configured, and the last deliveries with their results", async () => {
    gh.repo("acme/hooked", { "docs/index.md": "# Hooked\n" });
    await addSource(app, admin, { slug: "hooked", name: "Hooked", kind: "github", full_name: "acme/hooked" }, gh.url);
    const pushed = crypto.randomUUID();
    const unknown = crypto.randomUUID();
    const pinged = crypto.randomUUID();
    await deliver(app, "push", pushPayload("acme/hooked", [{ modified: ["docs/index.md", "docs/a.md"] }]), { secret: SECRET, delivery: pushed });
    await deliver(app, "push", pushPayload("acme/nobody", [{ modified: ["docs/index.md"] }]), { secret: SECRET, delivery: unknown });
    await deliver(app, "ping", { zen: "Keep it logically awesome.", hook_id: 1 }, { secret: SECRET, delivery: pinged });
    // Refused: not recorded.
    const refused = crypto.randomUUID();
    await deliver(app, "push", pushPayload("acme/hooked", []), { sign: "sha256=00", delivery: refused });
    const data = await sourcesOf();
    expect(data.webhook).toEqual({ url: `${app.url}/api/webhook`, secret_configured: true });
    const byId = (id: string) => data.deliveries.find((d: { id: string }) => d.id === id);
    expect(byId(pushed)).toEqual({
      id: pushed,
      event: "push",
      repository: "acme/hooked",
      received_at: clock.now(),
      result: "hooked: 2 file(s)",
      invalidated: 2,
    });
    expect(byId(unknown)).toEqual({
      id: unknown,
      event: "push",
      repository: "acme/nobody",
      received_at: clock.now(),
      result: "repo not configured",
      invalidated: 0,
    });
    expect(byId(pinged)).toEqual({ id: pinged, event: "ping", repository: null, received_at: clock.now(), result: "pong", invalidated: 0 });
    expect(byId(refused)).toBeUndefined();
  });

  it("says secret_configured false on an instance without DOCS_WEBHOOK_SECRET", async () => {
    const open = await startApp({ overrides: { clock } });
    try {
      const openAdmin = await signUp(open, "admin");
      const res = await openAdmin.browser.json("GET", "/api/docs/sources");
      expect(res.data).toEqual({ sources: [], webhook: { url: `${open.url}/api/webhook`, secret_configured: false }, deliveries: [] });
    } finally {
      await open.stop();
    }
  });

  it("reads and changes the renderers' settings: https URLs only, the translation key only as translate_key_set", async () => {
    const first = await admin.browser.json("GET", "/api/docs/settings");
    expect(first.status).toBe(200);
    expect(Object.keys(first.data.settings).sort()).toEqual(["kroki_url", "translate_key_set", "translate_locales", "translate_url"]);
    const res = await admin.browser.json("PATCH", "/api/docs/settings", {
      kroki_url: "https://kroki.example.invalid/",
      translate_url: "https://translate.example.invalid",
      translate_key: "lt-secret-key",
      translate_locales: ["de", "pt-BR", "de"],
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      settings: {
        kroki_url: "https://kroki.example.invalid",
        translate_url: "https://translate.example.invalid",
        translate_locales: ["de", "pt-BR"],
        translate_key_set: true,
      },
    });
    expect(JSON.stringify((await admin.browser.json("GET", "/api/docs/settings")).data)).not.toContain("lt-secret-key");
    for (const body of [
      { kroki_url: "http://kroki.example.invalid" },
      { kroki_url: "javascript:alert(1)" },
      { translate_url: "ftp://translate.example.invalid" },
      { translate_locales: ["not a locale"] },
      { translate_locales: "de" },
      { kroki_url: 42 },
    ]) {
      const bad = await admin.browser.json("PATCH", "/api/docs/settings", body);
      expect({ body, status: bad.status }).toEqual({ body, status: 400 });
    }
    const cleared = await admin.browser.json("PATCH", "/api/docs/settings", { translate_url: "", translate_key: "", translate_locales: [], kroki_url: "" });
    expect(cleared.data).toEqual({ settings: { kroki_url: "", translate_url: "", translate_locales: [], translate_key_set: false } });
  });
});
