import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GUIDE } from "../../src/docs/repository/guide-files.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { addSource, getPage } from "./docs.fixtures.ts";
import { sidebarLabels } from "./site.fixtures.ts";

/*
 * Issue 42, item 17: the docs site's way around. The home page sorts first; each page links the
 * previous and the next in the sidebar's order and lists its h2/h3 sections; an empty site is a
 * centred page with the header and, for admins, the way to add a source; a folder source whose
 * docs folder is not there is refused when added.
 */

function folder(files: Record<string, string>): string {
  const root = tempDir("cairn-docs-nav-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the docs site's navigation", () => {
  let app: TestApp;
  let admin: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    admin = await signUp(app, "admin");
    const root = folder({
      "docs/index.md": "# Zebra home\n\nThe start.\n",
      "docs/about.md": "# About <us>\n\n## Who & why\n\n### In \\<short\\>\n\n#### Too deep\n",
      "docs/basics/index.md": "---\ntitle: Basics\n---\n# Basics\n",
      "docs/basics/first.md": "---\nsidebar_position: 1\n---\n# First steps\n",
      "docs/basics/second.md": "---\nsidebar_position: 2\n---\n# Second <steps>\n",
      "docs/placed.md": "---\nsidebar_position: 1\n---\n# Placed\n",
    });
    await addSource(app, admin, { slug: "nav", name: "Nav", kind: "local", local_path: root, docs_root: "docs" });
  });
  afterAll(() => app.stop());

  it("sorts the home page first, before pages placed by position and pages by label", async () => {
    const home = await getPage(app, "/docs/nav/");
    expect(sidebarLabels(home.html)).toEqual(["Zebra home", "Placed", "About &lt;us&gt;", "Basics", "  First steps", "  Second &lt;steps&gt;"]);
  });

  it("links the previous and the next page in the sidebar's order, escaped; none before the first or after the last", async () => {
    const pager = async (path: string) => {
      const html = (await getPage(app, path)).html;
      const nav = /<nav class="pager"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? "";
      return [...nav.matchAll(/<a class="(prev|next)" rel="\1" href="([^"]*)"><small>[^<]*<\/small>([^<]*)<\/a>/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    };
    expect(await pager("/docs/nav/")).toEqual(["next /docs/nav/placed Placed"]);
    expect(await pager("/docs/nav/about")).toEqual(["prev /docs/nav/placed Placed", "next /docs/nav/basics Basics"]);
    // A folder's own page comes before the pages in it.
    expect(await pager("/docs/nav/basics")).toEqual(["prev /docs/nav/about About &lt;us&gt;", "next /docs/nav/basics/first First steps"]);
    expect(await pager("/docs/nav/basics/second")).toEqual(["prev /docs/nav/basics/first First steps"]);
    expect((await getPage(app, "/docs/nav/basics/second")).html).toContain('aria-label="Previous and next"');
  });

  it('lists the page\'s h2 and h3 sections "On this page", with their anchors, escaped', async () => {
    const html = (await getPage(app, "/docs/nav/about")).html;
    const toc = /<nav class="toc" aria-label="On this page">(.*?)<\/nav>/s.exec(html)?.[1] ?? "";
    expect([...toc.matchAll(/<li class="d(\d)"><a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => `h${m[1]} ${m[2]} ${m[3]}`)).toEqual([
      "h2 #who--why Who &amp; why",
      "h3 #in-short In &lt;short&gt;",
    ]);
    expect(html).toContain('id="who--why"');
    // A page without sections has no list.
    expect((await getPage(app, "/docs/nav/basics/first")).html).not.toContain('class="toc"');
  });

  it("keeps the header's way back to the app on every page", async () => {
    const html = (await getPage(app, "/docs/nav/about")).html;
    expect(html).toContain('<a class="home" href="/">Back to Cairn</a>');
    expect(html).toContain('<link rel="icon" href="/docs/_assets/icon.svg" type="image/svg+xml">');
    const icon = await fetch(`${app.url}/docs/_assets/icon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
  });

  it("answers a source it does not have 404, with the header and links back", async () => {
    const page = await getPage(app, "/docs/nothing-here/page");
    expect(page.status).toBe(404);
    expect(page.html).toContain('<header class="top">');
    expect(page.html).toContain('href="/docs"');
    expect(page.html).toContain("There is no documentation at this address.");
  });
});

describe("an empty docs site", () => {
  let app: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    admin = await signUp(app, "admin");
    member = await signUp(app, "member");
    // The built-in guide hidden, and nothing added: nothing to show.
    expect((await admin.browser.json("PATCH", `/api/docs/sources/${GUIDE.id}`, { hidden: true })).status).toBe(200);
  });
  afterAll(() => app.stop());

  const docs = async (who?: SignedUp) => {
    const res = await (who ? who.browser.fetch("/docs") : fetch(`${app.url}/docs`));
    return { status: res.status, cache: res.headers.get("cache-control"), html: await res.text() };
  };

  it("is a centred page with the site's header and the way back, never kept by a shared cache", async () => {
    for (const who of [undefined, member, admin]) {
      const page = await docs(who);
      expect(page.status).toBe(200);
      expect(page.cache).toBe("no-store");
      expect(page.html).toContain('<header class="top">');
      expect(page.html).toContain('<main id="content" class="empty-state"><h1>No documentation yet</h1>');
      expect(page.html).toContain('<a class="home" href="/">Back to Cairn</a>');
    }
  });

  it("offers admins, and only them, the link to add a source", async () => {
    expect((await docs(admin)).html).toContain('<a class="button primary" href="/admin#documentation">Add a source</a>');
    expect((await docs(member)).html).not.toContain("/admin#documentation");
    expect((await docs()).html).not.toContain("/admin#documentation");
  });
});

describe("a folder source's docs folder", () => {
  let app: TestApp;
  let admin: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    admin = await signUp(app, "admin");
  });
  afterAll(() => app.stop());

  it("must exist when the source is added: 400 naming it, and nothing is added", async () => {
    const root = folder({ "pages/index.md": "# Home\n" });
    const res = await admin.browser.json("POST", "/api/docs/sources", { slug: "missing", name: "Missing", kind: "local", local_path: root, docs_root: "docs" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({
      error: "invalid_request",
      error_description: `docs_root: ${root} has no folder "docs". Set the docs folder to where the Markdown files are inside it, or leave it empty for the folder itself.`,
    });
    // A file by that name is no folder either.
    const file = folder({ docs: "not a folder" });
    expect(
      (await admin.browser.json("POST", "/api/docs/sources", { slug: "file", name: "File", kind: "local", local_path: file, docs_root: "docs" })).status,
    ).toBe(400);
    const { sources } = (await admin.browser.json("GET", "/api/docs/sources")).data;
    expect(sources.map((s: { slug: string }) => s.slug)).toEqual(["guide"]);
    // The folder that is there, or the whole folder, is accepted.
    expect(
      (await admin.browser.json("POST", "/api/docs/sources", { slug: "pages", name: "Pages", kind: "local", local_path: root, docs_root: "pages" })).status,
    ).toBe(201);
    expect(
      (await admin.browser.json("POST", "/api/docs/sources", { slug: "whole", name: "Whole", kind: "local", local_path: root, docs_root: "" })).status,
    ).toBe(201);
  });

  it("must exist when a source is changed to it", async () => {
    const root = folder({ "docs/index.md": "# Home\n" });
    const { id } = await addSource(app, admin, { slug: "moving", name: "Moving", kind: "local", local_path: root, docs_root: "docs" });
    const res = await admin.browser.json("PATCH", `/api/docs/sources/${id}`, { docs_root: "elsewhere" });
    expect(res.status).toBe(400);
    const { sources } = (await admin.browser.json("GET", "/api/docs/sources")).data;
    expect(sources.find((s: { id: string }) => s.id === id).docs_root).toBe("docs");
  });
});
