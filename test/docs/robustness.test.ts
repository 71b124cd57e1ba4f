import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { through } from "../../src/docs/cache/docs-cache.ts";
import { renderMarkdown } from "../../src/docs/render/render-markdown.ts";
import { MAX_MARKDOWN_BYTES } from "../../src/docs/render/render-safely.ts";
import { createSource } from "../../src/docs/sources/sources.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { tempDir } from "../helpers/temp.ts";
import { pointedSource, pushPayload } from "./docs.fixtures.ts";

/*
 * What one file, one answer of the hosting service or one timing can do to the docs site: never
 * a 5xx, never a file from outside the source, never a page that is not published.
 */
let app: TestApp;
let hosting: ReturnType<typeof Bun.serve>;
let outside: string;
const answers: Record<string, () => Response> = {};

beforeAll(async () => {
  hosting = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      const answer = answers[url.pathname];
      return answer ? answer() : new Response("no", { status: 404 });
    },
  });
  app = await startApp({ overrides: { outbound: { allowLoopback: true } } });
  const root = tempDir("cairn-docs-robust-");
  outside = tempDir("cairn-docs-outside-");
  writeFileSync(join(outside, "secret.png"), "not for readers");
  mkdirSync(join(root, "docs", "img"), { recursive: true });
  writeFileSync(join(root, "docs", "index.md"), "# Home\n\nWelcome.\n");
  writeFileSync(join(root, "docs", "draft.md"), "---\ndraft: true\n---\n# Unpublished\n\nzebracorn plans.\n");
  writeFileSync(join(root, "docs", "huge.md"), `# Huge\n\n${"word ".repeat(MAX_MARKDOWN_BYTES / 4)}`);
  writeFileSync(join(root, "docs", "boxes.md"), `# Boxes\n\n${":::note\n".repeat(5000)}quokka\n`);
  symlinkSync(join(outside, "secret.png"), join(root, "docs", "img", "logo.png"));
  symlinkSync(outside, join(root, "docs", "elsewhere"));
  await createSource(app.ctx, { slug: "local", name: "Local", kind: "local", local_path: root, docs_root: "docs" });
});
afterAll(async () => {
  await app.stop();
  hosting.stop(true);
});

const get = async (path: string) => {
  const res = await fetch(app.url + path);
  return { status: res.status, text: await res.text(), csp: res.headers.get("content-security-policy") };
};

describe("a local folder source", () => {
  it("never serves a file through a symbolic link out of the folder", async () => {
    expect((await get("/docs/local/_files/docs/img/logo.png")).status).toBe(404);
    expect((await get("/docs/local/_files/docs/elsewhere/secret.png")).status).toBe(404);
  });

  it("answers 404 for a draft page, and search does not find it", async () => {
    expect((await get("/docs/local/draft")).status).toBe(404);
    const search = await get("/docs/local/_search?q=zebracorn");
    expect(search.status).toBe(200);
    expect(search.text).toContain("No page matches");
  });

  it("shows a notice for a page over the size limit, and the other pages stay searchable", async () => {
    const huge = await get("/docs/local/huge");
    expect(huge.status).toBe(200);
    expect(huge.text).toContain("This page is too large to show here");
    expect((await get("/docs/local/_search?q=welcome")).text).toContain('href="/docs/local/"');
  });

  it("renders thousands of unclosed boxes as a few nested ones and text", async () => {
    const page = await get("/docs/local/boxes");
    expect(page.status).toBe(200);
    expect(page.text).toContain("quokka");
    expect(page.text.split('class="admonition admonition-note"').length - 1).toBe(6);
  });
});

describe("unclosed boxes cost linear time and no stack", () => {
  it("renders 20,000 of them (no RangeError)", () => {
    const html = renderMarkdown(":::tip\n".repeat(20_000), "x.md", { link: (h) => h, image: (s) => s, diagram: null }).html;
    expect(html.split("admonition-tip").length - 1).toBe(6);
  });
});

describe("what the hosting service answers", () => {
  const hosted = (slug: string, fullName: string) => pointedSource(app, slug, fullName, hosting.url.href);

  it("a tree that is not JSON, or has no tree, is an unreadable repository: 404 pages, on the home page too", async () => {
    await hosted("garbled", "acme/garbled");
    answers["/repos/acme/garbled/git/trees/main"] = () => new Response("<html>proxy error</html>", { status: 200 });
    for (const path of ["/docs/garbled/", "/docs/garbled/guide", "/docs/garbled/_search?q=x"]) {
      const page = await get(path);
      expect([path, page.status]).toEqual([path, 404]);
      expect(page.csp).toContain("default-src 'none'");
    }
    answers["/repos/acme/garbled/git/trees/main"] = () => Response.json(null);
    expect((await get("/docs/garbled/")).status).toBe(404);
  });

  it("a commit date that is no date leaves the page without one", async () => {
    await hosted("dated", "acme/dated");
    answers["/repos/acme/dated/git/trees/main"] = () => Response.json({ tree: [{ path: "docs/index.md", type: "blob" }] });
    answers["/repos/acme/dated/contents/docs/index.md"] = () => new Response("# Dated\n");
    answers["/repos/acme/dated/commits"] = () => Response.json([{ commit: { author: { name: "x", date: "yesterday-ish" } }, author: { login: 42 } }]);
    const page = await get("/docs/dated/");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1");
    expect(page.text).not.toContain("Last updated");
  });
});

describe("a source removed while a page is being built", () => {
  it("answers what was loaded and keeps nothing (its rows are gone with it)", async () => {
    const value = await through(app.ctx, { sourceId: "no-such-source", kind: "raw", path: "docs/x.md" }, async () => "# loaded");
    expect(value).toBe("# loaded");
  });
});

describe("a delivery's id is claimed only by a push that was processed", () => {
  it("GitHub's redelivery of a push that found no source is processed once the source exists", async () => {
    const body = JSON.stringify(pushPayload("acme/later", [{ modified: ["docs/index.md"] }]));

    const deliver = () =>
      fetch(`${app.url}/api/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-github-event": "push", "x-github-delivery": "d-later-1" },
        body,
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    expect(await deliver()).toEqual({ status: 200, text: "repo not configured" });
    await createSource(app.ctx, { slug: "later", name: "Later", kind: "github", full_name: "acme/later", branch: "main", docs_root: "docs" });
    expect(await deliver()).toEqual({ status: 200, text: '{"invalidated":1}' });
    expect(await deliver()).toEqual({ status: 200, text: '{"invalidated":0,"duplicate":true}' });
  });
});
