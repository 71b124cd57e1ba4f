import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count } from "drizzle-orm";
import { docsWebhookDeliveries } from "../../src/docs/webhook/deliveries.table.ts";
import { MAX_DELIVERY_ROWS, UNSIGNED_PER_MINUTE } from "../../src/docs/webhook/delivery-log.ts";
import { recentDeliveries } from "../../src/docs/webhook/webhook.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PING, pushPayload, signature } from "./docs.fixtures.ts";

/*
 * Issue 39 item 8: without DOCS_WEBHOOK_SECRET (the default) anyone may deliver, and every
 * delivery is a row kept 30 days. Spec 3 section 5.3 still has unsigned deliveries accepted
 * (local testing only), so they are answered as the spec says, but at most UNSIGNED_PER_MINUTE a
 * minute per client address, and the rows kept are capped in number and in size.
 */
const SECRET = "flood test secret";
const clock = manualClock(Date.parse("2025-03-01T09:00:00Z"));
/** Without a secret; behind a proxy, so that a test can come from several addresses. */
let open: TestApp;
let signed: TestApp;
beforeAll(async () => {
  open = await startApp({ env: { CAIRN_TRUST_PROXY: "true" }, overrides: { clock } });
  signed = await startApp({ env: { CAIRN_TRUST_PROXY: "true", DOCS_WEBHOOK_SECRET: SECRET }, overrides: { clock } });
});
afterAll(async () => {
  await open.stop();
  await signed.stop();
});

const rows = async (app: TestApp) => (await app.ctx.db.select({ n: count() }).from(docsWebhookDeliveries).get())?.n ?? 0;
async function deliver(app: TestApp, from: string, event: string, payload: unknown, headers: Record<string, string> = {}) {
  const body = JSON.stringify(payload);
  const res = await fetch(`${app.url}/api/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-github-event": event, "x-github-delivery": crypto.randomUUID(), "x-forwarded-for": from, ...headers },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    data: res.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text,
  };
}

describe("unsigned deliveries (no DOCS_WEBHOOK_SECRET)", () => {
  it(`answers an address's first ${UNSIGNED_PER_MINUTE} a minute as the spec says, then 429 {"error":"Too many requests"} with Retry-After, recording none of those`, async () => {
    const from = "203.0.113.7";
    const before = await rows(open);
    for (let i = 0; i < UNSIGNED_PER_MINUTE; i++) expect((await deliver(open, from, "ping", PING)).data).toEqual({ pong: true });
    expect(await rows(open)).toBe(before + UNSIGNED_PER_MINUTE);
    for (const event of ["ping", "push", "issues"]) {
      const refused = await deliver(open, from, event, pushPayload("acme/anything", [{ modified: ["docs/a.md"] }]));
      expect(refused).toEqual({
        status: 429,
        retryAfter: expect.stringMatching(/^[1-9][0-9]*$/),
        data: { error: "Too many requests", code: "too_many_requests" },
      });
    }
    expect(await rows(open)).toBe(before + UNSIGNED_PER_MINUTE);
    // Another address is counted on its own; the first is served again a minute later.
    expect((await deliver(open, "198.51.100.20", "ping", PING)).data).toEqual({ pong: true });
    clock.advance(60_000);
    expect((await deliver(open, from, "ping", PING)).data).toEqual({ pong: true });
  });

  it(`keeps at most ${MAX_DELIVERY_ROWS} rows: at the cap the oldest gives way, and the newest show`, async () => {
    const now = clock.now();
    // The log as a flood from many addresses would have left it: full, every row younger than 30 days.
    const filler = Array.from({ length: MAX_DELIVERY_ROWS - (await rows(open)) }, (_, i) => ({
      id: `filler-${i}`,
      event: "ping",
      repository: null,
      receivedAt: now - 86_400_000 + i,
      result: "pong",
      invalidated: 0,
    }));
    for (let i = 0; i < filler.length; i += 1000)
      await open.ctx.db
        .insert(docsWebhookDeliveries)
        .values(filler.slice(i, i + 1000))
        .run();
    expect(await rows(open)).toBe(MAX_DELIVERY_ROWS);
    clock.advance(1000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1);
      const id = `newest-${i}`;
      ids.push(id);
      expect((await deliver(open, `192.0.2.${i + 1}`, "ping", PING, { "x-github-delivery": id })).data).toEqual({ pong: true });
    }
    expect(await rows(open)).toBe(MAX_DELIVERY_ROWS);
    expect((await recentDeliveries(open.ctx, 3)).map((d) => d.id)).toEqual(ids.toReversed());
    const kept = new Set((await open.ctx.db.select({ id: docsWebhookDeliveries.id }).from(docsWebhookDeliveries).all()).map((r) => r.id));
    expect(["filler-0", "filler-1", "filler-2"].filter((id) => kept.has(id))).toEqual([]);
    expect(kept.has("filler-3")).toBe(true);
  });

  it("stores a bounded record of each: the repository name cut to 201 characters, the event name to 50", async () => {
    clock.advance(1);
    const longName = `acme/${"n".repeat(100_000)}`;
    const pushed = await deliver(open, "192.0.2.50", "push", pushPayload(longName, [{ modified: ["docs/a.md"] }]), { "x-github-delivery": "long-name" });
    expect(pushed.data).toBe("repo not configured");
    clock.advance(1);
    const other = await deliver(open, "192.0.2.50", `x${"e".repeat(2000)}`, PING, { "x-github-delivery": "long-event" });
    expect(other.data).toBe("ignored");
    const stored = await recentDeliveries(open.ctx, 2);
    expect(stored.map((d) => [d.id, d.repository?.length ?? 0, d.event.length])).toEqual([
      ["long-event", 0, 50],
      ["long-name", 201, 4],
    ]);
  });
});

describe("signed deliveries (DOCS_WEBHOOK_SECRET set)", () => {
  it(`are not limited per address: GitHub sends from a few addresses and never retries, so more than ${UNSIGNED_PER_MINUTE} a minute are all served`, async () => {
    for (let i = 0; i <= UNSIGNED_PER_MINUTE + 5; i++) {
      const body = JSON.stringify({ ...PING, hook_id: i });
      const res = await fetch(`${signed.url}/api/webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "ping",
          "x-forwarded-for": "140.82.115.1",
          "x-hub-signature-256": signature(SECRET, body),
        },
        body,
      });
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
  });

  it("records nothing of a refused delivery, however many come", async () => {
    const before = await rows(signed);
    for (let i = 0; i < UNSIGNED_PER_MINUTE + 5; i++) {
      const res = await deliver(signed, "203.0.113.99", "ping", PING, { "x-hub-signature-256": `sha256=${"0".repeat(64)}` });
      expect(res).toEqual({ status: 401, retryAfter: null, data: { error: "bad signature", code: "bad_signature" } });
    }
    expect(await rows(signed)).toBe(before);
  });
});
