import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createHash } from "node:crypto";
import { pointedSource, pushPayload } from "./docs.fixtures.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";

/*
 * Expired entries are revalidated with the ETag they came with: a hosting service that answers
 * 304 costs no rate limit (GitHub's rule), so a public repository without a token (60 requests
 * an hour) keeps its site. A push still drops them whole.
 */
const clock = manualClock();
let app: TestApp;
let hosting: ReturnType<typeof Bun.serve>;
const files: Record<string, string> = { "docs/index.md": "# Home\n\nFirst text.\n" };
const answered: string[] = [];
const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;

beforeAll(async () => {
  hosting = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      let body: string | null = null;
      if (url.pathname === "/repos/acme/docs/git/trees/main") body = JSON.stringify({ tree: Object.keys(files).map((path) => ({ path, type: "blob" })) });
      else if (url.pathname.startsWith("/repos/acme/docs/contents/"))
        body = files[decodeURIComponent(url.pathname.slice("/repos/acme/docs/contents/".length))] ?? null;
      else if (url.pathname === "/repos/acme/docs/commits") body = JSON.stringify([{ commit: { author: { name: "Ada", date: "2026-01-02T03:04:05Z" } } }]);
      if (body === null) return new Response("no", { status: 404 });
      const what = url.pathname.split("/")[4] as string;
      const etag = etagOf(body);
      if (request.headers.get("if-none-match") === etag) {
        answered.push(`304 ${what}`);
        return new Response(null, { status: 304, headers: { etag } });
      }
      answered.push(`200 ${what}`);
      return new Response(body, { headers: { etag } });
    },
  });
  app = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
  await pointedSource(app, "docs", "acme/docs", hosting.url.href);
});
afterAll(async () => {
  await app.stop();
  hosting.stop(true);
});

const view = async () => {
  answered.length = 0;
  const res = await fetch(`${app.url}/docs/docs/`);
  expect(res.status).toBe(200);
  return { text: await res.text(), answered: [...answered].sort() };
};

describe("revalidation with ETags", () => {
  it("fetches whole the first time", async () => {
    expect((await view()).answered).toEqual(["200 commits", "200 contents", "200 git"]);
  });

  it("after the 5 minutes of raw Markdown and tree, asks again with the ETag and keeps what it has on 304", async () => {
    clock.advance(5 * 60_000 + 1);
    const page = await view();
    expect(page.answered).toEqual(["304 contents", "304 git"]);
    expect(page.text).toContain("First text.");
  });

  it("takes the new text when the file changed (200 with a new ETag)", async () => {
    files["docs/index.md"] = "# Home\n\nSecond text.\n";
    clock.advance(5 * 60_000 + 1);
    const page = await view();
    expect(page.answered).toEqual(["200 contents", "304 git"]);
    expect(page.text).toContain("Second text.");
  });

  it("a push drops the entries whole: fetched again without an ETag", async () => {
    const body = JSON.stringify(pushPayload("acme/docs", [{ modified: ["docs/index.md"] }]));

    const res = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: { "content-type": "application/json", "x-github-event": "push" }, body });
    expect(await res.json()).toEqual({ invalidated: 1 });
    expect((await view()).answered).toEqual(["200 commits", "200 contents", "200 git"]);
  });
});
