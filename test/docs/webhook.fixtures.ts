import { afterAll, beforeAll } from "bun:test";
import { eq } from "drizzle-orm";
import { docsCache } from "../../src/docs/cache/cache.table.ts";
import { updateDocsSettings } from "../../src/docs/settings/docs-settings.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { addSource, deliver, getPage, type GitHubStandIn, githubStandIn, krokiStandIn } from "./docs.fixtures.ts";

/* What the tests of the docs push webhook (spec 3 sections 4.4 and 5.3) share. */

// The example secret of GitHub's "Validating webhook deliveries" guide.
export const SECRET = "It's a Secret to Everybody";

export const SETUP = "docs/en/guide/setup.md";
export const INTRO = "docs/en/intro.md";
export const FR_INTRO = "docs/fr/intro.md";
const CATEGORY = "docs/en/guide/_category_.json";
export const HUBOT = { name: "Hubot", login: "hubot", date: "2025-02-28T12:00:00Z" };

/** What a fresh repository serves, of each kind, when every page of both locales is read once. */
export const WARM = {
  tree: 1,
  [`raw:${INTRO}`]: 1,
  [`raw:${SETUP}`]: 1,
  [`raw:${CATEGORY}`]: 1,
  [`raw:${FR_INTRO}`]: 1,
  [`meta:${INTRO}`]: 1,
  [`meta:${SETUP}`]: 1,
  [`meta:${FR_INTRO}`]: 1,
};
const countsOf = (extra: Record<string, string>) => Object.fromEntries(Object.keys(extra).map((path) => [`raw:${path}`, 1]));

export const sidebarOf = (html: string) => html.slice(html.indexOf('<nav class="sidebar"'), html.indexOf("</nav>", html.indexOf('<nav class="sidebar"')));

/**
 * A test file's instance (DOCS_WEBHOOK_SECRET set, outbound requests to loopback allowed, diagrams
 * through the Kroki stand-in) on a manual clock, its admin, and stand-ins of GitHub and Kroki;
 * with `open`, a second instance started without DOCS_WEBHOOK_SECRET. Started before the file's
 * tests and stopped after them; `cast` is filled in once they start.
 */
export function webhookWorld({ open = false }: { open?: boolean } = {}) {
  const clock = manualClock(Date.parse("2025-03-01T09:00:00Z"));
  const cast = {} as {
    gh: GitHubStandIn;
    kroki: ReturnType<typeof krokiStandIn>;
    app: TestApp;
    admin: SignedUp;
    /** The instance without DOCS_WEBHOOK_SECRET (with `open`). */
    openApp: TestApp;
    openAdmin: SignedUp;
  };
  beforeAll(async () => {
    cast.gh = githubStandIn();
    cast.kroki = krokiStandIn();
    cast.app = await startApp({ env: { DOCS_WEBHOOK_SECRET: SECRET }, overrides: { clock, outbound: { allowLoopback: true } } });
    cast.admin = await signUp(cast.app, "admin");
    if (open) {
      cast.openApp = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
      cast.openAdmin = await signUp(cast.openApp, "admin");
    }
    await updateDocsSettings(cast.app.ctx, { kroki_url: cast.kroki.url }, { trusted: true });
  });
  afterAll(async () => {
    await cast.app.stop();
    await cast.openApp?.stop();
    cast.gh.stop();
    cast.kroki.stop();
  });

  let made = 0;
  /**
   * A repository in the stand-in and its source (locales en and fr; fr has no guide/setup.md and
   * falls back to en's), every page of both locales read once so that everything is cached.
   */
  async function handbook(on: TestApp = cast.app, who: SignedUp = cast.admin, extra: Record<string, string> = {}) {
    const { gh } = cast;
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

  const push = (payload: unknown, options: { delivery?: string } = {}) =>
    deliver(cast.app, "push", payload as Record<string, unknown>, { secret: SECRET, ...options });
  const cacheRows = (sourceId: string) => cast.app.ctx.db.select().from(docsCache).where(eq(docsCache.sourceId, sourceId)).all();

  return { clock, cast, handbook, push, cacheRows };
}
