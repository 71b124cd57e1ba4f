import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSource } from "../../src/docs/sources/sources.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { tempDir } from "../helpers/temp.ts";
import { pointedSource } from "./docs.fixtures.ts";

/*
 * `/docs/<slug>/_files/<path>` takes a path from the reader: it must never leave the docs folder,
 * neither on disk nor at the hosting service (where URL normalization of `..` would reach other
 * repositories with the source's token).
 */
let app: TestApp;
let seen: string[] = [];
let hosting: ReturnType<typeof Bun.serve>;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  hosting = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      seen.push(url.pathname);
      if (url.pathname === "/repos/acme/site/contents/docs/img/logo.png") return new Response(PNG);
      return new Response("no", { status: 404 });
    },
  });
  app = await startApp({ overrides: { outbound: { allowLoopback: true } } });
  const root = tempDir("cairn-docs-guard-");
  mkdirSync(join(root, "docs", "img"), { recursive: true });
  writeFileSync(join(root, "docs", "index.md"), "# Home\n");
  writeFileSync(join(root, "docs", "img", "logo.png"), PNG);
  writeFileSync(join(root, "secret.png"), PNG);
  writeFileSync(join(root, "docs", "notes.txt"), "private");
  await createSource(app.ctx, { slug: "local", name: "Local", kind: "local", local_path: root, docs_root: "docs" });
  await pointedSource(app, "hosted", "acme/site", `http://127.0.0.1:${hosting.port}`);
});
afterAll(async () => {
  await app.stop();
  hosting.stop(true);
});

const get = (path: string) => fetch(app.url + path);

describe("the files route stays inside the docs folder", () => {
  it("serves a picture under the docs folder, as an image with a locked-down policy", async () => {
    for (const slug of ["local", "hosted"]) {
      const res = await get(`/docs/${slug}/_files/docs/img/logo.png`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    }
  });

  it("refuses dot segments, encoded or not, files outside the docs folder and files that are not pictures", async () => {
    seen = [];
    const attempts = [
      "docs/../secret.png",
      "docs/%2E%2E/secret.png",
      "docs/..%2Fsecret.png",
      "docs/img/..%2F..%2F..%2F..%2Fother%2Frepo%2Fcontents%2Fx.png",
      "docs//img/logo.png",
      "secret.png",
      "docs/notes.txt",
      "docs/img/logo.png%00.md",
      "docs\\..\\secret.png",
    ];
    for (const slug of ["local", "hosted"])
      for (const path of attempts) {
        const res = await get(`/docs/${slug}/_files/${path}`);
        expect([slug, path, res.status]).toEqual([slug, path, 404]);
      }
    // Nothing but the docs folder's own paths was ever asked of the hosting service.
    expect(seen.filter((p) => !p.startsWith("/repos/acme/site/contents/docs/"))).toEqual([]);
    expect(seen.some((p) => p.includes(".."))).toBe(false);
  });
});
