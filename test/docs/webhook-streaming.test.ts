import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createSource } from "../../src/docs/sources/sources.service.ts";
import { MAX_LARGE_BODIES, SPOOL_AT_BYTES, SPOOL_FOLDER } from "../../src/docs/webhook/webhook-body.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { waitFor } from "../helpers/wait.ts";
import { PING, pushPayload, signature } from "./docs.fixtures.ts";

/*
 * Issue 39 item 9: the webhook hashes the body as it streams in and keeps it (past 1 MiB in a
 * spool file, not in memory) only to hand it on once the signature holds; large bodies in flight
 * are capped; a request that cannot verify is refused before its body is read.
 */
const SECRET = "streaming webhook secret";
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ env: { DOCS_WEBHOOK_SECRET: SECRET } });
  await createSource(app.ctx, { slug: "big", name: "Big", kind: "github", full_name: "acme/big", branch: "main", docs_root: "docs" });
});
afterAll(() => app.stop());

const encoder = new TextEncoder();
const spool = () => join(app.dataDir, SPOOL_FOLDER);
const spooled = () => (existsSync(spool()) ? readdirSync(spool()) : []);
const headersFor = (event: string, body: Uint8Array | null, sign?: string | null) => {
  const headers: Record<string, string> = { "content-type": "application/json", "x-github-event": event, "x-github-delivery": crypto.randomUUID() };
  const header = sign === undefined ? signature(SECRET, body as Uint8Array) : sign;
  if (header !== null) headers["x-hub-signature-256"] = header;
  return headers;
};
/** A ping of about `size` bytes (GitHub's example, padded). */
const bigPing = (size: number) => encoder.encode(JSON.stringify({ ...PING, padding: "x".repeat(size) }));
const answer = async (res: Response) => ({
  status: res.status,
  data: res.headers.get("content-type")?.startsWith("application/json") ? await res.json() : await res.text(),
});

/**
 * `bytes` sent with their length declared: the first `first` bytes at once, the rest only once
 * `release()` is called (until then the request stays in flight, its body half read).
 */
function held(bytes: Uint8Array, first: number, headers: Record<string, string>) {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let step = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (step++ === 0) return controller.enqueue(bytes.subarray(0, first));
      await released;
      controller.enqueue(bytes.subarray(first));
      controller.close();
    },
  });
  const abort = new AbortController();
  const response = fetch(`${app.url}/api/webhook`, {
    method: "POST",
    headers: { ...headers, "content-length": String(bytes.length) },
    body,
    duplex: "half",
    signal: abort.signal,
  } as RequestInit).then(answer, (e) => ({ status: 0, data: String(e) }));
  return { response, release, abort: () => abort.abort() };
}

describe("a request that cannot verify is refused before its body is read", () => {
  // Its body never ends: only an answer given before reading it can come back.
  for (const [what, sign] of [
    ["no X-Hub-Signature-256 header", null],
    ["a header that is no sha256 signature", "sha256=not-hex"],
  ] as const)
    it(`answers 401 {"error":"bad signature"} to ${what} while the body is still coming`, async () => {
      const request = held(bigPing(4 * 1024 * 1024), 64 * 1024, headersFor("ping", null, sign));
      try {
        expect(await request.response).toEqual({ status: 401, data: { error: "bad signature", code: "bad_signature" } });
      } finally {
        request.abort();
      }
    });
});

describe("a large body", () => {
  it("with a wrong signature: 401, and nothing of it is left in the spool", async () => {
    const body = bigPing(20 * 1024 * 1024);
    const res = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: headersFor("ping", body, signature("another secret", body)), body });
    expect(await answer(res)).toEqual({ status: 401, data: { error: "bad signature", code: "bad_signature" } });
    expect(spooled()).toEqual([]);
  });

  it("with a good signature: a 20 MiB push is processed as any other", async () => {
    const payload = pushPayload("acme/big", [{ modified: ["docs/index.md"] }]);
    const body = encoder.encode(JSON.stringify({ ...payload, padding: "x".repeat(20 * 1024 * 1024) }));
    const res = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: headersFor("push", body), body });
    expect(await answer(res)).toEqual({ status: 200, data: { invalidated: 1 } });
    expect(spooled()).toEqual([]);
  });

  it(`past ${MAX_LARGE_BODIES} in flight: 429 {"error":"Too many requests"} with Retry-After, declared or chunked; served again once they end`, async () => {
    const body = bigPing(SPOOL_AT_BYTES * 2);
    const inFlight = Array.from({ length: MAX_LARGE_BODIES }, () => held(body, SPOOL_AT_BYTES + 1024, headersFor("ping", body)));
    try {
      // Each has sent more than is kept in memory: each is spooled, and holds its place.
      await waitFor(() => spooled().length === MAX_LARGE_BODIES, { what: "every held body spooled", timeoutMs: 10_000 });
      const declared = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: headersFor("ping", body), body });
      expect(await answer(declared)).toEqual({ status: 429, data: { error: "Too many requests", code: "server_busy" } });
      expect(Number(declared.headers.get("retry-after"))).toBeGreaterThan(0);
      // Without a declared length, it is refused once it grows past what is kept in memory.
      const chunked = await fetch(`${app.url}/api/webhook`, {
        method: "POST",
        headers: headersFor("ping", body),
        body: new Blob([body]).stream(),
        duplex: "half",
      } as RequestInit);
      expect(await answer(chunked)).toEqual({ status: 429, data: { error: "Too many requests", code: "server_busy" } });
      // A small one is not held back by them.
      const small = encoder.encode(JSON.stringify(PING));
      expect(await answer(await fetch(`${app.url}/api/webhook`, { method: "POST", headers: headersFor("ping", small), body: small }))).toEqual({
        status: 200,
        data: { pong: true },
      });
    } finally {
      for (const r of inFlight) r.release();
    }
    for (const r of inFlight) expect(await r.response).toEqual({ status: 200, data: { pong: true } });
    const again = await fetch(`${app.url}/api/webhook`, { method: "POST", headers: headersFor("ping", body), body });
    expect(await answer(again)).toEqual({ status: 200, data: { pong: true } });
    expect(spooled()).toEqual([]);
  });
});
