import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, getPage, type GitHubStandIn } from "./docs.fixtures.ts";
import { sidebarLabels, siteWorld } from "./site.fixtures.ts";
import { sidebarOf } from "./webhook.fixtures.ts";

/*
 * Issue 43, item 4: a page carries its own section of the sidebar, not the whole site's. Past 60
 * entries the sidebar shows the top level, each other folder as one link to its first page, and
 * the folders that hold the page open; so a page's size does not grow with the pages elsewhere.
 */
const { cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

/** A site whose `guide` section is the same whatever else it holds: the home, an intro, the guide's 5 pages, and 3 more sections of `pages` pages. */
function site(pages: number): Record<string, string> {
  const files: Record<string, string> = {
    "docs/index.md": "---\nsidebar_position: 1\n---\n# Home\n\nWelcome.\n",
    "docs/intro.md": "---\nsidebar_position: 2\n---\n# Intro\n",
    "docs/guide/_category_.json": JSON.stringify({ label: "The <guide>", position: 3 }),
    "docs/guide/index.md": "# Guide\n",
  };
  for (let i = 1; i <= 4; i++) files[`docs/guide/step-${i}.md`] = `---\nsidebar_position: ${i}\n---\n# Step ${i}\n\nDo thing ${i}.\n`;
  for (let s = 1; s <= 3; s++)
    for (let p = 1; p <= pages; p++) files[`docs/section-${s}/page-${p}.md`] = `---\nsidebar_position: ${p}\n---\n# Section ${s} page ${p}\n`;
  return files;
}

/** The sidebar's first entries on a page of the guide, at any size: the top level's pages and the guide, open. */
const TOP_AND_GUIDE = ["Home", "Intro", "The &lt;guide&gt;", "  Step 1", "  Step 2", "  Step 3", "  Step 4"];

describe("a page's size grows with its section, not with the site", () => {
  let small = "";
  let large = "";
  beforeAll(async () => {
    gh.repo("acme/small", site(1));
    gh.repo("acme/large", site(164));
    await addSource(app, admin, { slug: "small", name: "Docs", kind: "github", full_name: "acme/small" }, gh.url);
    await addSource(app, admin, { slug: "large", name: "Docs", kind: "github", full_name: "acme/large" }, gh.url);
    small = (await getPage(app, "/docs/small/guide/step-2")).html.replaceAll("/docs/small/", "/docs/large/");
    large = (await getPage(app, "/docs/large/guide/step-2")).html;
  });

  it("at 500 pages a page is within 1.2 times its size at 10 pages", () => {
    expect(Object.keys(site(1)).filter((p) => p.endsWith(".md"))).toHaveLength(10);
    expect(Object.keys(site(164)).filter((p) => p.endsWith(".md"))).toHaveLength(499);
    expect(large.length).toBeLessThan(1.2 * small.length);
    // The page itself is the same: only the sidebar differs.
    const article = (html: string) => html.slice(html.indexOf("<article>"));
    expect(article(large)).toBe(article(small));
  });

  it("shows a small site's sidebar whole", () => {
    expect(sidebarLabels(small)).toEqual([
      ...TOP_AND_GUIDE,
      "Section 1",
      "  Section 1 page 1",
      "Section 2",
      "  Section 2 page 1",
      "Section 3",
      "  Section 3 page 1",
    ]);
  });

  it("shows a large one's top level, its own section open and every other folder as one link to its first page", () => {
    expect(sidebarLabels(large)).toEqual([...TOP_AND_GUIDE, "Section 1", "Section 2", "Section 3"]);
    const nav = sidebarOf(large);
    expect(nav).toContain('<li class="closed"><a href="/docs/large/section-2/page-1">Section 2</a></li>');
    expect(nav).not.toContain("/docs/large/section-2/page-2");
    expect(nav).toContain('<a href="/docs/large/guide/step-2" aria-current="page">Step 2</a>');
    expect(nav.match(/aria-current/g)).toHaveLength(1);
  });

  it("adds one link to the top level per section, whatever it holds", async () => {
    gh.repo("acme/wide", { ...site(1), ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`docs/more-${i}/a.md`, `# More ${i} a\n`])) });
    gh.repo("acme/wider", {
      ...site(1),
      ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`docs/more-${i}/a.md`, `# More ${i} a\n`])),
      ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`docs/more-${i}/b.md`, `# More ${i} b\n`])),
    });
    await addSource(app, admin, { slug: "wide", name: "Docs", kind: "github", full_name: "acme/wide" }, gh.url);
    await addSource(app, admin, { slug: "wider", name: "Docs", kind: "github", full_name: "acme/wider" }, gh.url);
    const wide = (await getPage(app, "/docs/wide/guide/step-2")).html.replaceAll("/docs/wide/", "/docs/wider/");
    const wider = (await getPage(app, "/docs/wider/guide/step-2")).html;
    expect(sidebarLabels(wider)).toHaveLength(7 + 3 + 60);
    expect(sidebarOf(wider)).toBe(sidebarOf(wide));
  });

  it("opens the section of the page shown, and marks it; the pager still crosses sections", async () => {
    const page = (await getPage(app, "/docs/large/section-2/page-164")).html;
    const labels = sidebarLabels(page);
    expect(labels).toContain("  Section 2 page 164");
    expect(labels).not.toContain("  Step 1");
    expect(labels).toHaveLength(6 + 164);
    expect(sidebarOf(page)).toContain('<a href="/docs/large/section-2/page-164" aria-current="page">Section 2 page 164</a>');
    const pager = /<nav class="pager"[^>]*>(.*?)<\/nav>/s.exec(page)?.[1] ?? "";
    expect(pager).toContain('href="/docs/large/section-2/page-163"');
    expect(pager).toContain('href="/docs/large/section-3/page-1"');
    // The home page: the top level only, every folder closed.
    expect(sidebarLabels((await getPage(app, "/docs/large/")).html)).toHaveLength(6);
  });

  it("keeps a 404 page's sidebar to the top level", async () => {
    const missing = await getPage(app, "/docs/large/section-2/nothing");
    expect(missing.status).toBe(404);
    expect(sidebarLabels(missing.html)).toHaveLength(6);
    expect(missing.html).not.toContain("<script");
  });
});
