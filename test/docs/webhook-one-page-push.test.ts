import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, deliver, type Files, getPage, type GitHubStandIn, pushPayload, served } from "./docs.fixtures.ts";
import { SECRET, sidebarLabels, siteWorld } from "./site.fixtures.ts";

/*
 * Issue 43, item 4: what a push costs at 2,000 pages. The sidebar is built again from what is
 * kept of each file (its title, place, version), so the first view after a push that changed one
 * page reads the tree and that page from the hosting service, not every page; the search index
 * takes the pushed pages in and lets removed ones go, without reading the others.
 */
const { clock, cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

const REPO = "acme/big";
const SECTIONS = 20;
const PER_SECTION = 100;
const pageFile = (s: number, p: number) => `docs/section-${s}/page-${p}.md`;
const pageText = (s: number, p: number, words = `word${s}x${p}`) =>
  `---\nsidebar_position: ${p}\n---\n# Section ${s} page ${p}\n\nThis page says ${words}end.\n`;

describe("a push to a 2,000-page repository", () => {
  beforeAll(async () => {
    const files: Record<string, string> = { "docs/index.md": "# Home\n\nThe big handbook.\n" };
    for (let s = 1; s <= SECTIONS; s++) for (let p = 1; p <= PER_SECTION; p++) files[pageFile(s, p)] = pageText(s, p);
    gh.repo(REPO, files);
    await addSource(app, admin, { slug: "big", name: "Big", kind: "github", full_name: REPO }, gh.url);
    // The first view reads every page once (their titles and places), as any first sidebar must.
    expect((await getPage(app, "/docs/big/")).status).toBe(200);
    expect(Object.keys(gh.hits()).filter((k) => k.startsWith(`raw:${REPO}:`))).toHaveLength(SECTIONS * PER_SECTION + 1);
  });

  const push = async (files: Files) => {
    const res = await deliver(app, "push", pushPayload(REPO, [files]), { secret: SECRET });
    expect(res.status).toBe(200);
    return res.data;
  };
  /** What the stand-in served while `work` ran, and how many requests it answered. */
  const counting = async <T>(work: () => Promise<T>) => {
    const before = gh.hits();
    const requests = gh.requests.length;
    const result = await work();
    return { result, served: served(before, gh.hits()), requests: gh.requests.length - requests };
  };

  it("the first view after a push that changed one page asks for the tree and that page, not the other 2,000", async () => {
    // Long enough for every cached text to have expired: before issue 43 each would have been asked for again.
    clock.advance(10 * 60_000);
    gh.put(REPO, pageFile(3, 7), pageText(3, 7).replace("# Section 3 page 7", "# Section 3, page seven"));
    expect(await push({ modified: [pageFile(3, 7)] })).toEqual({ invalidated: 1 });
    const view = await counting(() => getPage(app, "/docs/big/section-3/page-7"));
    expect(view.result.status).toBe(200);
    expect(view.served).toEqual({ [`tree:${REPO}`]: 1, [`raw:${REPO}:${pageFile(3, 7)}`]: 1, [`meta:${REPO}:${pageFile(3, 7)}`]: 1 });
    expect(view.requests).toBe(3);
    expect(sidebarLabels(view.result.html)).toContain("  Section 3, page seven");
    // A page not shown before: its own text (expired) and date; nothing else.
    const other = await counting(() => getPage(app, "/docs/big/section-9/page-2"));
    expect(other.served).toEqual({ [`raw:${REPO}:${pageFile(9, 2)}`]: 1, [`meta:${REPO}:${pageFile(9, 2)}`]: 1 });
  });

  it("the sidebar shows a page added, drops a page removed and follows a page renamed", async () => {
    gh.put(REPO, "docs/section-3/added.md", "# A new page\n\nFresh.\n");
    expect(await push({ added: ["docs/section-3/added.md"] })).toEqual({ invalidated: 1 });
    const added = await counting(() => getPage(app, "/docs/big/section-3/added"));
    expect(added.result.status).toBe(200);
    expect(sidebarLabels(added.result.html)).toContain("  A new page");
    expect(added.requests).toBe(3);

    gh.remove(REPO, pageFile(3, 1));
    expect(await push({ removed: [pageFile(3, 1)] })).toEqual({ invalidated: 1 });
    const removed = await counting(() => getPage(app, "/docs/big/section-3/page-1"));
    expect(removed.result.status).toBe(404);
    expect(removed.requests).toBe(1);
    const section = sidebarLabels((await getPage(app, "/docs/big/section-3/page-2")).html);
    expect(section).not.toContain("  Section 3 page 1");
    expect(section).toContain("  Section 3 page 2");

    gh.remove(REPO, pageFile(3, 2));
    gh.put(REPO, "docs/section-3/renamed.md", pageText(3, 2));
    expect(await push({ removed: [pageFile(3, 2)], added: ["docs/section-3/renamed.md"] })).toEqual({ invalidated: 2 });
    const renamed = await counting(() => getPage(app, "/docs/big/section-3/renamed"));
    expect(renamed.result.status).toBe(200);
    expect(renamed.requests).toBe(3);
    expect(sidebarLabels(renamed.result.html).filter((l) => l === "  Section 3 page 2")).toHaveLength(1);
    expect(renamed.result.html).toContain('<a href="/docs/big/section-3/renamed" aria-current="page">Section 3 page 2</a>');
    expect((await getPage(app, "/docs/big/section-3/page-2")).status).toBe(404);
  });

  it("search takes a pushed page in and lets a removed one go, reading only what the push changed", async () => {
    const search = async (q: string) => (await getPage(app, `/docs/big/_search?q=${encodeURIComponent(q)}`)).html;
    const results = (html: string) => [...(/<ol class="results">(.*?)<\/ol>/s.exec(html)?.[1] ?? "").matchAll(/<li><a href="([^"]+)">/g)].map((m) => m[1]);
    // The first index of 2,000 pages is read after the answer, a slice at a time, never while a search waits.
    const first = await search("word5x5end");
    expect(first).toContain("Search is still reading these pages (0 of 2,00");
    await app.ctx.docs.building.get(`${await sourceId()}\u0000en`)?.finished;
    expect(results(await search("word5x5end"))).toEqual(["/docs/big/section-5/page-5"]);
    expect(results(await search("word6x6end"))).toEqual(["/docs/big/section-6/page-6"]);

    gh.put(REPO, pageFile(5, 5), pageText(5, 5, "wrench"));
    gh.remove(REPO, pageFile(6, 6));
    expect(await push({ modified: [pageFile(5, 5)], removed: [pageFile(6, 6)] })).toEqual({ invalidated: 2 });
    // The index lives its 20 minutes (spec 3 section 8), then takes the push in.
    clock.advance(20 * 60_000);
    const after = await counting(() => search("wrench"));
    expect(results(after.result)).toEqual(["/docs/big/section-5/page-5"]);
    expect(after.result).not.toContain("still reading");
    expect(after.served).toEqual({ [`tree:${REPO}`]: 1, [`raw:${REPO}:${pageFile(5, 5)}`]: 1 });
    expect(results(await search("word5x5end"))).toEqual([]);
    expect(results(await search("word6x6end"))).toEqual([]);
    expect(results(await search("word7x7end"))).toEqual(["/docs/big/section-7/page-7"]);
  });
});

async function sourceId(): Promise<string> {
  const { sources } = (await admin.browser.json("GET", "/api/docs/sources")).data;
  return sources.find((s: { slug: string }) => s.slug === "big").id;
}
