import { beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { addSource, articleOf, deliver, getPage, pushPayload } from "./docs.fixtures.ts";
import { PNG, SECRET, sidebarLabels, siteWorld } from "./site.fixtures.ts";

/* A local folder as a docs source: served from the disk, never beyond its docs root, refreshed by the admin. */
const { cast } = siteWorld();
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ app, admin } = cast));

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
    // The home page comes first (issue 42), then the folders and pages by label.
    expect(sidebarLabels(home.html)).toEqual(["Local home", "Guide"]);
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
