import { beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { docsCache, docsDiagrams } from "../../src/docs/cache/cache.table.ts";
import { updateDocsSettings } from "../../src/docs/settings/docs-settings.ts";
import { refreshUiTranslations } from "../../src/docs/site/translate.ts";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { articleOf, getPage, type GitHubStandIn, type krokiStandIn, libreTranslateStandIn, pushPayload, served } from "./docs.fixtures.ts";
import { FR_INTRO, HUBOT, INTRO, SETUP, sidebarOf, webhookWorld } from "./webhook.fixtures.ts";

/* Spec 3 section 4.4: what a push invalidates, seen through the docs cache, and what it leaves alone. */
const { clock, handbook, push, cast } = webhookWorld();
let gh: GitHubStandIn;
let kroki: ReturnType<typeof krokiStandIn>;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, kroki, app, admin } = cast));

describe("spec 3 section 4.4: what a push invalidates, seen through the cache", () => {
  it("a touched Markdown file under the docs root: its raw body, its last-updated metadata and its HTML in every locale", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const before = h.hits();
    // Until the push, the cache answers: nothing is fetched and the old page shows.
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with care.");
    expect(served(before, h.hits())).toEqual({});
    const res = await push(pushPayload(h.fullName, [{ modified: [SETUP] }]));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    const pages = await h.viewAll();
    // Once each: the raw body, the metadata, and the tree (dropped by every push); nothing else.
    expect(served(before, h.hits())).toEqual({ tree: 1, [`raw:${SETUP}`]: 1, [`meta:${SETUP}`]: 1 });
    for (const locale of ["en", "fr"]) {
      const article = articleOf(pages[`${locale}/guide/setup`] as string);
      expect(article).toContain("Install it with a wrench.");
      expect(article).not.toContain("with care");
      expect(article).toContain('Last updated on <time datetime="2025-02-28T12:00:00Z">2025-02-28</time> by hubot');
    }
    // fr has no page of its own there: the re-rendered fr page is en's, with the notice.
    expect(articleOf(pages["fr/guide/setup"] as string)).toContain('<p class="notice" role="note">');
  });

  it("a locale's own page: its HTML in every locale is dropped, and the other locale's file is not fetched again", async () => {
    const h = await handbook();
    gh.put(h.fullName, FR_INTRO, "---\nsidebar_position: 1\n---\n# Introduction\n\nBienvenue à bord.\n", HUBOT);
    const before = h.hits();
    expect((await push(pushPayload(h.fullName, [{ modified: [FR_INTRO] }]))).data).toEqual({ invalidated: 1 });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({ tree: 1, [`raw:${FR_INTRO}`]: 1, [`meta:${FR_INTRO}`]: 1 });
    expect(articleOf(pages["fr/intro"] as string)).toContain("Bienvenue à bord.");
    expect(articleOf(pages["en/intro"] as string)).toContain("Welcome, reader.");
  });

  it("a touched file whose name has spaces and non-ASCII letters (as the payload lists it, unencoded)", async () => {
    const odd = "docs/en/guide/mise à jour 🚀.md";
    const h = await handbook(app, admin, { [odd]: "# Mise à jour\n\nAncien texte.\n" });
    const url = `guide/${encodeURIComponent("mise à jour 🚀")}`;
    for (const locale of ["en", "fr"] as const) expect(articleOf((await h.view(locale, url)).html)).toContain("Ancien texte.");
    gh.put(h.fullName, odd, "# Mise à jour\n\nNouveau texte.\n", HUBOT);
    const before = h.hits();
    expect((await push(pushPayload(h.fullName, [{ modified: [odd] }]))).data).toEqual({ invalidated: 1 });
    for (const locale of ["en", "fr"] as const) expect(articleOf((await h.view(locale, url)).html)).toContain("Nouveau texte.");
    expect(served(before, h.hits())).toEqual({ tree: 1, [`raw:${odd}`]: 1, [`meta:${odd}`]: 1 });
  });

  it("counts the touched Markdown files under the docs root once each, across commits and added, modified, removed", async () => {
    const h = await handbook();
    h.put(INTRO, "---\nsidebar_position: 1\n---\n# Intro\n\nWelcome back, reader.\n");
    gh.remove(h.fullName, SETUP);
    const res = await push(
      pushPayload(h.fullName, [
        { modified: [INTRO] },
        { modified: [INTRO, "README.md", "docs-old/intro.md"], added: ["docs/en/img/new.png"] },
        { removed: [SETUP] },
      ]),
    );
    expect(res.data).toEqual({ invalidated: 2 });
    expect(articleOf((await h.view("en", "intro")).html)).toContain("Welcome back, reader.");
    // The removed page is gone in every locale, and from the sidebars.
    for (const locale of ["en", "fr"] as const) {
      const gone = await h.view(locale, "guide/setup");
      expect(gone.status).toBe(404);
      expect(sidebarOf(gone.html)).not.toContain("guide/setup");
    }
  });

  it("a path that leaves the docs root through `..`, `.`, an empty segment or a backslash is not under it", async () => {
    const h = await handbook();
    const before = h.hits();
    const outside = ["docs/../../x.md", "docs/../README.md", "docs/en/../../secret.md", "docs/./en/intro.md", "docs//en/intro.md", "docs/en/..\\..\\x.md"];
    const res = await push(pushPayload(h.fullName, [{ modified: outside }]));
    expect(res.data).toEqual({ invalidated: 0 });
    await h.viewAll();
    // Only what every push drops (the tree, the sidebars) is read again.
    expect(served(before, h.hits())).toEqual({ tree: 1 });
  });

  it("every push: the sidebar of every locale and the repository tree (a page added shows in both locales' sidebars)", async () => {
    const h = await handbook();
    const faq = "docs/en/faq.md";
    gh.put(h.fullName, faq, "---\nsidebar_label: FAQ\nsidebar_position: 3\n---\n# Frequently asked questions\n", HUBOT);
    const before = h.hits();
    for (const locale of ["en", "fr"] as const) expect(sidebarOf((await h.view(locale, "intro")).html)).not.toContain("FAQ");
    expect((await push(pushPayload(h.fullName, [{ added: [faq] }]))).data).toEqual({ invalidated: 1 });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({ tree: 1, [`raw:${faq}`]: 1 });
    expect(sidebarOf(pages["en/intro"] as string)).toContain(`<li><a href="/docs/${h.slug}/en/faq">FAQ</a></li>`);
    expect(sidebarOf(pages["fr/intro"] as string)).toContain(`<li><a href="/docs/${h.slug}/fr/faq">FAQ</a></li>`);
    expect((await h.view("fr", "faq")).status).toBe(200);
  });

  it("{invalidated:0} when nothing under the docs root was touched, yet the sidebars and the tree are dropped", async () => {
    const h = await handbook();
    // A page an earlier delivery (missed) added: only a new tree and new sidebars show it.
    gh.put(h.fullName, "docs/en/changelog.md", "# Changelog\n", HUBOT);
    h.put(INTRO, "---\nsidebar_position: 1\n---\n# Intro\n\nChanged without a push naming it.\n");
    const before = h.hits();
    const res = await push(pushPayload(h.fullName, [{ modified: ["README.md", "docs-old/guide.md", "website/docs/en/intro.md", "docs"] }]));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 0 });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({ tree: 1, "raw:docs/en/changelog.md": 1 });
    for (const locale of ["en", "fr"]) expect(sidebarOf(pages[`${locale}/intro`] as string)).toContain(`/docs/${h.slug}/${locale}/changelog">Changelog</a>`);
    expect(articleOf(pages["en/intro"] as string)).toContain("Welcome, reader.");
  });

  it("an untouched page stays cached: not fetched again, its old text still shown", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    h.put(INTRO, "---\nsidebar_position: 1\n---\n# Intro\n\nChanged without a push naming it.\n");
    const before = h.hits();
    expect((await push(pushPayload(h.fullName, [{ modified: [SETUP] }]))).data).toEqual({ invalidated: 1 });
    const pages = await h.viewAll();
    const moved = served(before, h.hits());
    expect(moved[`raw:${INTRO}`]).toBeUndefined();
    expect(moved[`meta:${INTRO}`]).toBeUndefined();
    expect(articleOf(pages["en/intro"] as string)).toContain("Welcome, reader.");
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with a wrench.");
  });

  it("translation rows of the repository are dropped; another repository's stay", async () => {
    const h = await handbook();
    const other = await handbook();
    const translation = (sourceId: string) => ({
      sourceId,
      kind: "translation" as const,
      locale: "de",
      path: `page:${INTRO}`,
      value: "Willkommen",
      expiresAt: clock.now() + 3600_000,
    });
    await app.ctx.db
      .insert(docsCache)
      .values([translation(h.id), translation(other.id)])
      .run();
    const translations = (sourceId: string) =>
      app.ctx.db
        .select()
        .from(docsCache)
        .where(and(eq(docsCache.sourceId, sourceId), eq(docsCache.kind, "translation")))
        .all();
    expect(await translations(h.id)).toHaveLength(1);
    expect((await push(pushPayload(h.fullName, [{ modified: ["README.md"] }]))).data).toEqual({ invalidated: 0 });
    expect(await translations(h.id)).toEqual([]);
    expect(await translations(other.id)).toHaveLength(1);
  });

  it("translation (configured): the repository's page, sidebar and repo-nav rows are asked again; the site's own words are not", async () => {
    const h = await handbook();
    const translator = libreTranslateStandIn();
    await updateDocsSettings(app.ctx, { translate_url: translator.url, translate_locales: ["de"] }, { trusted: true });
    try {
      // The hourly job: the site's own words (site-level rows).
      await refreshUiTranslations(app.ctx);
      expect(translator.requests.map((r) => r.q)).toEqual([
        "Search\nOn this page\nLast updated on\nThis page was translated automatically.\nPrevious\nNext\nPrevious and next",
      ]);
      for (const page of ["intro", "guide/setup"]) expect((await getPage(app, `/docs/${h.slug}/de/${page}`)).status).toBe(200);
      const before = translator.requests.length;
      // Cached: reading them again asks nothing.
      for (const page of ["intro", "guide/setup"]) await getPage(app, `/docs/${h.slug}/de/${page}`);
      expect(translator.requests).toHaveLength(before);
      h.put(INTRO, "---\nsidebar_position: 1\n---\n# Intro\n\nWelcome aboard, reader.\n");
      expect((await push(pushPayload(h.fullName, [{ modified: [INTRO] }]))).data).toEqual({ invalidated: 1 });
      const intro = await getPage(app, `/docs/${h.slug}/de/intro`);
      await getPage(app, `/docs/${h.slug}/de/guide/setup`);
      const asked = translator.requests.slice(before);
      // The pushed page (its HTML and its title), the sidebar and the repository names; not the untouched page, not the site's words.
      const what = (r: { q: string; format: string }) =>
        r.format === "html"
          ? r.q.includes("Welcome aboard, reader.")
            ? "intro page"
            : r.q
          : r.q === "Intro"
            ? "intro title"
            : r.q === "Intro\nGuide\nSetup"
              ? "sidebar"
              : r.q.split("\n").includes("Handbook")
                ? "repo-nav"
                : r.q;
      expect(asked.map(what).sort()).toEqual(["intro page", "intro title", "repo-nav", "sidebar"]);
      expect(articleOf(intro.html)).toContain("WELCOME ABOARD, READER.");
      expect(intro.html).toContain('<button type="submit">SEARCH</button>');
    } finally {
      await updateDocsSettings(app.ctx, { translate_url: "", translate_locales: [] }, { trusted: true });
      translator.stop();
    }
  });

  it("not the search index: search answers from the old index until its 20 minutes are over, then from the pushed text", async () => {
    const h = await handbook();
    const search = async (q: string) => (await getPage(app, `/docs/${h.slug}/_search?locale=en&q=${encodeURIComponent(q)}`)).html;
    const hit = `<a href="/docs/${h.slug}/en/guide/setup">Setup</a>`;
    expect(await search("care")).toContain(hit);
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    expect((await push(pushPayload(h.fullName, [{ modified: [SETUP] }]))).data).toEqual({ invalidated: 1 });
    // The page shows the push at once...
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("with a wrench");
    // ...the index does not.
    expect(await search("care")).toContain(hit);
    expect(await search("wrench")).toContain("No page matches");
    clock.advance(20 * 60_000 - 1);
    expect(await search("care")).toContain(hit);
    expect(await search("wrench")).toContain("No page matches");
    clock.advance(1);
    expect(await search("wrench")).toContain(hit);
    expect(await search("wrench")).toContain("<mark>wrench</mark>");
    expect(await search("care")).toContain("No page matches");
  });

  it("not the diagram renders: the pushed page shows the same diagram, and Kroki is not asked again", async () => {
    const flow = "docs/en/flow.md";
    const h = await handbook(app, admin, { [flow]: "# Flow\n\nOld words.\n\n```mermaid\ngraph TD; A-->B\n```\n" });
    const diagramOf = (html: string) => /<img class="diagram" src="([^"]+)"/.exec(html)?.[1] ?? null;
    const src = diagramOf((await h.view("en", "flow")).html);
    expect(src).toStartWith("/docs/_diagrams/mermaid/");
    const renders = kroki.renders.length;
    expect((await getPage(app, src as string)).html).toContain("graph TD; A--&gt;B");
    expect(kroki.renders).toHaveLength(renders + 1);
    // The row's key: the type and the encoded source (the URL adds a MAC).
    const key = `mermaid/${(src as string).slice("/docs/_diagrams/mermaid/".length).split(".")[0]}`;
    gh.put(h.fullName, flow, "# Flow\n\nNew words.\n\n```mermaid\ngraph TD; A-->B\n```\n", HUBOT);
    expect((await push(pushPayload(h.fullName, [{ modified: [flow] }]))).data).toEqual({ invalidated: 1 });
    const page = (await h.view("en", "flow")).html;
    expect(page).toContain("New words.");
    expect(diagramOf(page)).toBe(src);
    expect(await app.ctx.db.select().from(docsDiagrams).where(eq(docsDiagrams.key, key)).all()).toHaveLength(1);
    expect((await getPage(app, src as string)).status).toBe(200);
    expect(kroki.renders).toHaveLength(renders + 1);
  });
});
