import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { GUIDE, guideFiles } from "../../src/docs/repository/guide-files.ts";
import { installGuide } from "../../src/docs/guide/guide.service.ts";
import { readSetting, writeSetting } from "../../src/db/settings.repo.ts";
import { docsCache } from "../../src/docs/cache/cache.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { articleOf, getPage } from "./docs.fixtures.ts";
import { sidebarLabels } from "./site.fixtures.ts";

/*
 * Issue 42, item 18: Cairn's own user guide (docs/guide) is a built-in docs source, carried in the
 * executable: a fresh instance's /docs shows it, first; it cannot be edited or removed, an admin
 * may hide it; a new version of the program drops what was cached of the old guide.
 */
const GUIDE_FOLDER = join(import.meta.dir, "../../docs/guide");

describe("the built-in guide", () => {
  let app: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    admin = await signUp(app, "admin");
    member = await signUp(app, "member");
  });
  afterAll(() => app.stop());

  it("carries every page of docs/guide", () => {
    const pages = readdirSync(GUIDE_FOLDER).filter((f) => f.endsWith(".md"));
    expect(pages.length).toBeGreaterThanOrEqual(5);
    expect([...guideFiles().files.keys()].sort()).toEqual(pages.sort());
  });

  it("is where a fresh instance's /docs leads, with every page of the guide in its sidebar, Welcome first", async () => {
    const docs = await getPage(app, "/docs");
    expect(docs.status).toBe(302);
    expect(docs.headers.get("location")).toBe("/docs/guide/");
    const home = await getPage(app, "/docs/guide/");
    expect(home.status).toBe(200);
    expect(articleOf(home.html)).toContain("<h1");
    expect(articleOf(home.html)).toContain("Welcome to Cairn");
    expect(sidebarLabels(home.html)).toEqual([
      "Welcome",
      "Install and set up",
      "Accounts and sign-in",
      "Connect your apps",
      "The workspace",
      "Backup and upgrade",
    ]);
  });

  it("renders each page of the guide, with its sections and the way to the next page", async () => {
    for (const [path, words] of [
      ["setup", ["CAIRN_ISSUER", "setup wizard"]],
      ["apps", ["Register an app", "Test login"]],
      ["workspace", ["Share links", "Add a todo"]],
      ["backup", ["cairn backup", "FILE.key"]],
    ] as const) {
      const page = await getPage(app, `/docs/guide/${path}`);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      for (const word of words) expect({ path, has: articleOf(page.html).includes(word) }).toEqual({ path, has: true });
      expect(page.html).toContain('<nav class="toc" aria-label="On this page">');
      expect(page.html).toContain('<nav class="pager"');
    }
    // The guide's links between pages lead to the site's pages.
    expect(articleOf((await getPage(app, "/docs/guide/")).html)).toContain('href="/docs/guide/setup"');
  });

  it("is found by the search box", async () => {
    const results = await getPage(app, "/docs/guide/_search?q=backup");
    expect(results.status).toBe(200);
    expect(results.html).toContain('href="/docs/guide/backup"');
  });

  it("is listed first to admins, as built in: it cannot be edited or removed, and nothing changes when that is tried", async () => {
    const { sources } = (await admin.browser.json("GET", "/api/docs/sources")).data;
    expect(sources[0]).toMatchObject({ id: GUIDE.id, kind: "builtin", slug: "guide", name: "Cairn guide", hidden: false });
    const edit = await admin.browser.json("PATCH", `/api/docs/sources/${GUIDE.id}`, { name: "Mine now" });
    expect(edit.status).toBe(400);
    expect(edit.data).toEqual({
      error: "invalid_request",
      error_description: 'The built-in guide is part of Cairn: it cannot be edited or removed, only hidden ({"hidden": true}) or shown again.',
    });
    const remove = await admin.browser.json("DELETE", `/api/docs/sources/${GUIDE.id}`);
    expect(remove.status).toBe(400);
    expect(remove.data.error_description).toContain("cannot be edited or removed");
    expect((await admin.browser.json("GET", "/api/docs/sources")).data.sources[0]).toMatchObject({ name: "Cairn guide", hidden: false });
    expect((await getPage(app, "/docs/guide/")).status).toBe(200);
    // Its slug is taken, as any source's.
    const clash = await admin.browser.json("POST", "/api/docs/sources", { slug: "guide", name: "X", kind: "github", full_name: "a/b" });
    expect(clash.status).toBe(409);
    // `hidden` is the guide's alone.
    const other = await admin.browser.json("POST", "/api/docs/sources", { slug: "other", name: "X", kind: "github", full_name: "a/b", hidden: true });
    expect(other.status).toBe(400);
  });

  it("may be hidden by an admin (not by a member): off the site, and /docs says so; shown again, it is back", async () => {
    expect((await member.browser.json("PATCH", `/api/docs/sources/${GUIDE.id}`, { hidden: true })).status).toBe(403);
    const hide = await admin.browser.json("PATCH", `/api/docs/sources/${GUIDE.id}`, { hidden: true });
    expect(hide.status).toBe(200);
    expect(hide.data.source).toMatchObject({ id: GUIDE.id, kind: "builtin", hidden: true });
    expect((await getPage(app, "/docs/guide/")).status).toBe(404);
    expect((await getPage(app, "/docs/guide/_search?q=backup")).status).toBe(404);
    const empty = await getPage(app, "/docs");
    expect(empty.status).toBe(200);
    expect(empty.html).toContain("No documentation yet");
    // Still listed to admins, to show it again.
    expect((await admin.browser.json("GET", "/api/docs/sources")).data.sources[0]).toMatchObject({ id: GUIDE.id, hidden: true });
    const show = await admin.browser.json("PATCH", `/api/docs/sources/${GUIDE.id}`, { hidden: false });
    expect(show.data.source.hidden).toBe(false);
    expect((await getPage(app, "/docs/guide/")).status).toBe(200);
  });

  it("drops what was cached of another version of the guide at boot (it updates with the executable)", async () => {
    await getPage(app, "/docs/guide/setup");
    const cachedRows = async () => (await app.ctx.db.select().from(docsCache).all()).filter((r) => r.sourceId === GUIDE.id).length;
    expect(await cachedRows()).toBeGreaterThan(0);
    await installGuide(app.ctx);
    expect(await cachedRows()).toBeGreaterThan(0); // the same version: kept
    const stored = await readSetting<Record<string, unknown>>(app.ctx.db, "docs_guide");
    await writeSetting(app.ctx.db, app.ctx.clock, "docs_guide", { ...stored, version: "an older one" });
    await installGuide(app.ctx);
    expect(await cachedRows()).toBe(0);
    expect(await readSetting<Record<string, unknown>>(app.ctx.db, "docs_guide")).toMatchObject({ version: guideFiles().version, hidden: false });
  });
});
