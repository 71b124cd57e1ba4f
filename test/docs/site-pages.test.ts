import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, articleOf, getPage, type GitHubStandIn } from "./docs.fixtures.ts";
import { PAGE_CSP, PNG, SVG, sidebarLabels, siteWorld } from "./site.fixtures.ts";

/* The docs site's pages from a repository (spec 3 section 1.3): rendering, sidebar, locales, links, pictures, drafts. */
const { cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

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
