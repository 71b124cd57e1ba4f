import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { docsCache, docsDiagrams } from "../../src/docs/cache/cache.table.ts";
import { updateDocsSettings } from "../../src/docs/settings/docs-settings.ts";
import { refreshUiTranslations } from "../../src/docs/site/translate.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import {
  addSource,
  deliver,
  getPage,
  type GitHubStandIn,
  githubStandIn,
  ISSUES_OPENED,
  krokiStandIn,
  libreTranslateStandIn,
  PING,
  pushPayload,
  served,
  signature,
  TAG_PUSH,
} from "./docs.fixtures.ts";

// The example secret of GitHub's "Validating webhook deliveries" guide.
const SECRET = "It's a Secret to Everybody";
const clock = manualClock(Date.parse("2025-03-01T09:00:00Z"));
let gh: GitHubStandIn;
let kroki: ReturnType<typeof krokiStandIn>;
let app: TestApp;
let admin: SignedUp;
/** An instance started without DOCS_WEBHOOK_SECRET. */
let openApp: TestApp;
let openAdmin: SignedUp;

beforeAll(async () => {
  gh = githubStandIn();
  kroki = krokiStandIn();
  app = await startApp({ env: { DOCS_WEBHOOK_SECRET: SECRET }, overrides: { clock, outbound: { allowLoopback: true } } });
  openApp = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
  admin = await signUp(app, "admin");
  openAdmin = await signUp(openApp, "admin");
  updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
});
afterAll(async () => {
  await app.stop();
  await openApp.stop();
  gh.stop();
  kroki.stop();
});

const SETUP = "docs/en/guide/setup.md";
const INTRO = "docs/en/intro.md";
const FR_INTRO = "docs/fr/intro.md";
const CATEGORY = "docs/en/guide/_category_.json";
const HUBOT = { name: "Hubot", login: "hubot", date: "2025-02-28T12:00:00Z" };

/** What a fresh repository serves, of each kind, when every page of both locales is read once. */
const WARM = {
  tree: 1,
  [`raw:${INTRO}`]: 1,
  [`raw:${SETUP}`]: 1,
  [`raw:${CATEGORY}`]: 1,
  [`raw:${FR_INTRO}`]: 1,
  [`meta:${INTRO}`]: 1,
  [`meta:${SETUP}`]: 1,
  [`meta:${FR_INTRO}`]: 1,
};

let made = 0;
/**
 * A repository in the stand-in and its source (locales en and fr; fr has no guide/setup.md and
 * falls back to en's), every page of both locales read once so that everything is cached.
 */
async function handbook(on: TestApp = app, who: SignedUp = admin, extra: Record<string, string> = {}) {
  made++;
  const fullName = `acme/handbook-${made}`;
  gh.repo(fullName, {
    "README.md": "# The handbook's repository\n",
    [INTRO]: "---\nsidebar_position: 1\n---\n# Intro\n\nWelcome, reader.\n",
    [SETUP]: "# Setup\n\nInstall it with care.\n",
    [CATEGORY]: JSON.stringify({ label: "Guide", position: 2 }),
    [FR_INTRO]: "---\nsidebar_position: 1\n---\n# Introduction\n\nBienvenue.\n",
    ...extra,
  });
  const source = await addSource(
    on,
    who,
    { slug: `handbook-${made}`, name: "Handbook", kind: "github", full_name: fullName, locales: ["en", "fr"], default_locale: "en" },
    gh.url,
  );
  const view = async (locale: "en" | "fr", page: string) => getPage(on, `/docs/${source.slug}/${locale}/${page}`);
  const viewAll = async () => {
    const pages: Record<string, string> = {};
    for (const locale of ["en", "fr"] as const)
      for (const page of ["intro", "guide/setup"]) {
        const res = await view(locale, page);
        if (res.status !== 200) throw new Error(`${locale}/${page} answered ${res.status}`);
        pages[`${locale}/${page}`] = res.html;
      }
    return pages;
  };
  /** What the stand-in served for this repository: `tree`, `raw:<path>`, `meta:<path>`. */
  const hits = () =>
    Object.fromEntries(
      Object.entries(gh.hits())
        .filter(([k]) => k === `tree:${fullName}` || k.startsWith(`raw:${fullName}:`) || k.startsWith(`meta:${fullName}:`))
        .map(([k, v]) => [k.replace(`:${fullName}`, ""), v]),
    );
  await viewAll();
  if (JSON.stringify(Object.entries(hits()).sort()) !== JSON.stringify(Object.entries({ ...WARM, ...countsOf(extra) }).sort()))
    throw new Error(`warming read ${JSON.stringify(hits())}`);
  return { fullName, slug: source.slug, id: source.id, view, viewAll, hits, put: (path: string, text: string) => gh.put(fullName, path, text, HUBOT) };
}
const countsOf = (extra: Record<string, string>) => Object.fromEntries(Object.keys(extra).map((path) => [`raw:${path}`, 1]));

const push = (payload: unknown, options: { delivery?: string } = {}) =>
  deliver(app, "push", payload as Record<string, unknown>, { secret: SECRET, ...options });
const sidebarOf = (html: string) => html.slice(html.indexOf('<nav class="sidebar"'), html.indexOf("</nav>", html.indexOf('<nav class="sidebar"')));
const articleOf = (html: string) => html.slice(html.indexOf("<article>"), html.indexOf("</article>"));
const cacheRows = (sourceId: string) => app.ctx.db.select().from(docsCache).where(eq(docsCache.sourceId, sourceId)).all();

describe("spec 3 section 4.4: processing order", () => {
  it("checks the signature before parsing: a body that is not JSON is 401 with a wrong signature, 400 with a right one", async () => {
    const bad = await deliver(app, "push", "{not json", { sign: signature("another secret", "{not json") });
    expect(bad.status).toBe(401);
    expect(bad.data).toEqual({ error: "bad signature" });
    const good = await deliver(app, "push", "{not json", { secret: SECRET });
    expect(good.status).toBe(400);
    expect(good.data).toEqual({ error: "Invalid request" });
  });

  it("checks the signature before answering a ping", async () => {
    const res = await deliver(app, "ping", PING, { sign: signature("another secret", JSON.stringify(PING)) });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ error: "bad signature" });
  });

  it("answers ping with {pong:true} before looking the repository up (the example names one not configured)", async () => {
    expect(PING.repository.full_name).toBe("Octocoders/Hello-World");
    const res = await deliver(app, "ping", PING, { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.contentType).toStartWith("application/json");
    expect(res.data).toEqual({ pong: true });
  });

  it("answers another event with a short text and status 200, before looking the repository up", async () => {
    const res = await deliver(app, "issues", ISSUES_OPENED, { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.contentType).toStartWith("text/plain");
    expect(res.data).toBe("ignored");
  });

  it("goes by the event header: a push payload sent as another event invalidates nothing", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const before = h.hits();
    const res = await deliver(app, "create", pushPayload(h.fullName, [{ modified: [SETUP] }]), { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.data).toBe("ignored");
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with care.");
  });

  it("answers `repo not configured` (200, text) for a repository.full_name no source has", async () => {
    const payload = pushPayload("someone/elsewhere", [{ modified: ["docs/intro.md"] }]);
    const res = await push(payload);
    expect(res.status).toBe(200);
    expect(res.contentType).toStartWith("text/plain");
    expect(res.data).toBe("repo not configured");
    delete payload.repository;
    expect((await push(payload)).data).toBe("repo not configured");
  });

  it("compares repository.full_name lowercased: an upper-case name in the payload matches the source", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const res = await push(pushPayload(h.fullName.toUpperCase(), [{ modified: [SETUP] }]));
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
  });

  it("matches a source added with a mixed-case full_name to the lower-case name of a payload", async () => {
    gh.repo("Acme/Mixed-Case", { "docs/index.md": "# Home\n\nOld home.\n" });
    const source = await addSource(app, admin, { slug: "mixed-case", name: "Mixed", kind: "github", full_name: "Acme/Mixed-Case" }, gh.url);
    expect(source.full_name).toBe("acme/mixed-case");
    expect((await getPage(app, "/docs/mixed-case/")).html).toContain("Old home.");
    gh.put("Acme/Mixed-Case", "docs/index.md", "# Home\n\nNew home.\n");
    expect((await push(pushPayload("acme/mixed-case", [{ modified: ["docs/index.md"] }]))).data).toEqual({ invalidated: 1 });
    expect((await getPage(app, "/docs/mixed-case/")).html).toContain("New home.");
  });
});

describe("spec 3 section 5.3: the signature", () => {
  const wrong: [string, (body: string) => string | null][] = [
    ["no X-Hub-Signature-256 header", () => null],
    ["an empty header", () => ""],
    ["a signature made with another secret", (body) => signature("It's a secret to nobody", body)],
    ["the hex without its sha256= prefix", (body) => signature(SECRET, body).slice("sha256=".length)],
    ["a sha1= signature (the older X-Hub-Signature form)", (body) => `sha1=${new Bun.CryptoHasher("sha1", SECRET).update(body).digest("hex")}`],
    ["the right signature cut short by one digit", (body) => signature(SECRET, body).slice(0, -1)],
    ["the signature of other bytes (one more space)", (body) => signature(SECRET, `${body} `)],
  ];
  for (const [name, sign] of wrong)
    it(`answers 401 {"error":"bad signature"} to ${name}, and invalidates nothing`, async () => {
      const h = await handbook();
      h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
      const before = h.hits();
      const rows = cacheRows(h.id).length;
      const body = JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }]));
      const delivery = randomUUID();
      const res = await deliver(app, "push", body, { sign: sign(body), delivery });
      expect(res.status).toBe(401);
      expect(res.contentType).toStartWith("application/json");
      expect(res.data).toEqual({ error: "bad signature" });
      expect(cacheRows(h.id)).toHaveLength(rows);
      const pages = await h.viewAll();
      expect(served(before, h.hits())).toEqual({});
      expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with care.");
      // A refused request does not use the delivery up: GitHub's redelivery of it, signed, is processed.
      expect((await deliver(app, "push", body, { secret: SECRET, delivery })).data).toEqual({ invalidated: 1 });
    });

  it("verifies the bytes as sent: whitespace, CRLF, \\u escapes, raw UTF-8 and emoji; the same JSON re-serialized does not verify", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    // \u0041 in the name: the repository is read only after the bytes are verified.
    const name = h.fullName.replace("a", "\\u0041");
    const body = [
      "{\r\n",
      '  "ref" :  "refs/heads/main" ,\r\n',
      `\t"repository": { "full_name": "${name}", "description": "Caf\\u00e9 \\ud83d\\ude80 and café 🚀 and cafe\u0301" },\r\n`,
      '  "pusher": {"name": "Zoë 👩‍💻", "email": null},\r\n',
      '  "commits": [ {\r\n',
      '      "id": "0000000000000000000000000000000000000001", "message": "Mise \\u00e0 jour \\"quoted\\" \\/ slash \\t tab",\r\n',
      `      "added": [], "removed": [], "modified": [ "${SETUP}" ] } ]   \r\n`,
      "}\r\n",
    ].join("");
    const raw = new TextEncoder().encode(body);
    const reserialized = JSON.stringify(JSON.parse(body));
    const others: [string, string | Uint8Array][] = [
      ["re-serialized", reserialized],
      ["re-serialized with two-space indents", JSON.stringify(JSON.parse(body), null, 2)],
      ["CRLF made LF", body.replaceAll("\r\n", "\n")],
      ["trimmed", body.trim()],
      ["NFC-normalized", body.normalize("NFC")],
      ["encoded as Latin-1", Buffer.from(body, "latin1")],
    ];
    for (const [what, bytes] of others) {
      const res = await deliver(app, "push", raw, { sign: signature(SECRET, bytes) });
      expect({ what, status: res.status, data: res.data }).toEqual({ what, status: 401, data: { error: "bad signature" } });
    }
    expect((await h.view("en", "guide/setup")).html).toContain("Install it with care.");
    const res = await deliver(app, "push", raw, { sign: signature(SECRET, raw) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
  });

  it("accepts unsigned requests when DOCS_WEBHOOK_SECRET is empty", async () => {
    const h = await handbook(openApp, openAdmin);
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const res = await deliver(openApp, "push", pushPayload(h.fullName, [{ modified: [SETUP] }]), { sign: null });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
    expect((await deliver(openApp, "ping", PING, { sign: null })).data).toEqual({ pong: true });
  });

  it("does not accept unsigned requests while the secret is set", async () => {
    const res = await deliver(app, "ping", PING, { sign: null });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ error: "bad signature" });
  });
});

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
    app.ctx.db
      .insert(docsCache)
      .values([translation(h.id), translation(other.id)])
      .run();
    const translations = (sourceId: string) =>
      app.ctx.db
        .select()
        .from(docsCache)
        .where(and(eq(docsCache.sourceId, sourceId), eq(docsCache.kind, "translation")))
        .all();
    expect(translations(h.id)).toHaveLength(1);
    expect((await push(pushPayload(h.fullName, [{ modified: ["README.md"] }]))).data).toEqual({ invalidated: 0 });
    expect(translations(h.id)).toEqual([]);
    expect(translations(other.id)).toHaveLength(1);
  });

  it("translation (configured): the repository's page, sidebar and repo-nav rows are asked again; the site's own words are not", async () => {
    const h = await handbook();
    const translator = libreTranslateStandIn();
    updateDocsSettings(app.ctx, { translate_url: translator.url, translate_locales: ["de"] }, { trusted: true });
    try {
      // The hourly job: the site's own words (site-level rows).
      await refreshUiTranslations(app.ctx);
      expect(translator.requests.map((r) => r.q)).toEqual(["Search\nOn this page\nLast updated on\nThis page was translated automatically."]);
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
      updateDocsSettings(app.ctx, { translate_url: "", translate_locales: [] }, { trusted: true });
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
    expect(app.ctx.db.select().from(docsDiagrams).where(eq(docsDiagrams.key, key)).all()).toHaveLength(1);
    expect((await getPage(app, src as string)).status).toBe(200);
    expect(kroki.renders).toHaveLength(renders + 1);
  });
});

describe("spec 3 section 4.4: what GitHub recommends", () => {
  it("a push to another branch changes nothing: {invalidated:0}, not even the tree is fetched again", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const before = h.hits();
    const res = await push(pushPayload(h.fullName, [{ modified: [SETUP] }], "refs/heads/feature/new-setup"));
    expect(res.data).toEqual({ invalidated: 0 });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with care.");
  });

  it("a tag push (the package's example) changes nothing either", async () => {
    const h = await handbook();
    const before = h.hits();
    const payload = structuredClone(TAG_PUSH);
    payload.repository.full_name = h.fullName;
    expect(payload.ref).toBe("refs/tags/simple-tag");
    expect((await push(payload)).data).toEqual({ invalidated: 0 });
    await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
  });

  it("a delivery id seen before is not processed twice", async () => {
    const h = await handbook();
    const payload = pushPayload(h.fullName, [{ modified: [SETUP] }]);
    const delivery = randomUUID();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    expect((await push(payload, { delivery })).data).toEqual({ invalidated: 1 });
    await h.viewAll();
    h.put(SETUP, "# Setup\n\nInstall it with a hammer.\n");
    const before = h.hits();
    const again = await push(payload, { delivery });
    expect(again.status).toBe(200);
    expect(again.data).toEqual({ invalidated: 0, duplicate: true });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("with a wrench");
    // The next push (another body: GitHub's payload names its own head commit and time) is processed.
    const next = pushPayload(h.fullName, [{ modified: [SETUP] }]);
    next.after = "c".repeat(40);
    expect((await push(next)).data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("with a hammer");
  });

  it("a signed push replayed under a new delivery id, or none, is not processed again (the signature covers the body, not the id)", async () => {
    const h = await handbook();
    const body = JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }]));
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    expect((await deliver(app, "push", body, { secret: SECRET, delivery: randomUUID() })).data).toEqual({ invalidated: 1 });
    await h.viewAll();
    h.put(SETUP, "# Setup\n\nInstall it with a hammer.\n");
    const before = h.hits();
    for (const delivery of [randomUUID(), null, "", "x".repeat(201)]) {
      const replay = await deliver(app, "push", body, { secret: SECRET, delivery });
      expect({ delivery, status: replay.status, data: replay.data }).toEqual({ delivery, status: 200, data: { invalidated: 0, duplicate: true } });
    }
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("with a wrench");
  });

  it("50 copies of one signed push at once, each under its own delivery id: exactly one is processed", async () => {
    const h = await handbook();
    const body = JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }]));
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(app, "push", body, { secret: SECRET, delivery: randomUUID() })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => JSON.stringify(a.data) === '{"invalidated":1}')).toHaveLength(1);
    expect(answers.filter((a) => JSON.stringify(a.data) === '{"invalidated":0,"duplicate":true}')).toHaveLength(49);
  });

  it("a truncated commit list (2048 commits, GitHub's most) drops every entry of the repository", async () => {
    const h = await handbook();
    const other = await handbook();
    h.put(INTRO, "---\nsidebar_position: 1\n---\n# Intro\n\nChanged in a commit the list left out.\n");
    const before = h.hits();
    const otherBefore = other.hits();
    const rows = cacheRows(h.id).length;
    // The example's commits, 2048 of them: about 1.1 MB, as GitHub sends such a push.
    const payload = pushPayload(
      h.fullName,
      Array.from({ length: 2048 }, () => ({ modified: ["README.md"] })),
    );
    const res = await push(payload);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: rows });
    expect(cacheRows(h.id)).toEqual([]);
    const pages = await h.viewAll();
    // Everything is read again, as when the site was first visited.
    expect(served(before, h.hits())).toEqual(WARM);
    expect(articleOf(pages["en/intro"] as string)).toContain("Changed in a commit the list left out.");
    await other.viewAll();
    expect(served(otherBefore, other.hits())).toEqual({});
  });

  it("takes GitHub's form content type (payload=<json>), signed over the form body", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const form = `payload=${encodeURIComponent(JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }])))}`;
    const bad = await deliver(app, "push", form, {
      contentType: "application/x-www-form-urlencoded",
      sign: signature(SECRET, decodeURIComponent(form.slice(8))),
    });
    expect(bad.status).toBe(401);
    const res = await deliver(app, "push", form, { contentType: "application/x-www-form-urlencoded", secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
  });
});
