import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import type { AppContext } from "../../src/context/context.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { withTx } from "../../src/db/tx.ts";
import { claimNext } from "../../src/mail/outbox.repo.ts";
import { enqueueMail } from "../../src/mail/outbox.service.ts";
import { KEEP_FAILED_MS, KEEP_SENT_MS, purgeSentMail } from "../../src/mail/outbox.purge.ts";
import { GIVE_UP_MS, LEASE_MS, recordOutcome, retryDelay } from "../../src/mail/sender.ts";
import { createLogger } from "../../src/shared/log.ts";
import { manualClock } from "../helpers/clock.ts";
import { tempDir } from "../helpers/temp.ts";

// Issue 44 item 1: the outbox's rules, without a server: a row is taken by one sender at a time
// under a lease, a failed try is retried with backoff and jitter, mail not accepted within a day
// is given up, and old sent mail is purged.
const clock = manualClock(1_800_000_000_000);
let ctx: AppContext;

beforeAll(() => {
  // A mail server is configured, but no sender runs: the test takes the rows itself.
  const config = loadConfig({ CAIRN_DATA: tempDir(), CAIRN_SMTP_URL: "smtp://127.0.0.1:9", CAIRN_SMTP_FROM: "cairn@example.org" });
  ctx = bootContext(config, { clock, log: createLogger("silent") });
});
afterAll(() => closeDatabase(ctx.db));

const row = (id: string) => ctx.db.$client.query("SELECT * FROM mail_outbox WHERE id = ?").get(id) as Record<string, unknown>;
function enqueue(to: string): string {
  withTx(ctx.db, () => enqueueMail(ctx, { kind: "test", to, subject: "s", text: "t", html: "h" }));
  return (ctx.db.$client.query("SELECT id FROM mail_outbox WHERE to_address = ?").get(to) as { id: string }).id;
}
const clear = () => ctx.db.$client.run("DELETE FROM mail_outbox");

describe("issue 44: the outbox", () => {
  it("is taken by one sender at a time: a second claim finds nothing until the lease ends", () => {
    clear();
    const id = enqueue("lease@example.org");
    const taken = claimNext(ctx.db, clock.now(), LEASE_MS);
    expect(taken).toMatchObject({ id, state: "sending", attempts: 1, nextAttemptAt: clock.now() + LEASE_MS });
    expect(claimNext(ctx.db, clock.now(), LEASE_MS)).toBeNull();
    expect(claimNext(ctx.db, clock.now() + LEASE_MS - 1, LEASE_MS)).toBeNull();
    // The sender died mid-send: once its lease is over, the row is taken again, the try counted.
    expect(claimNext(ctx.db, clock.now() + LEASE_MS, LEASE_MS)).toMatchObject({ id, state: "sending", attempts: 2 });
  });

  it("takes the oldest due row first, and none that is not due", () => {
    clear();
    const first = enqueue("first@example.org");
    clock.advance(1000);
    const second = enqueue("second@example.org");
    expect(claimNext(ctx.db, clock.now() - 1000, LEASE_MS)?.id).toBe(first);
    expect(claimNext(ctx.db, clock.now() - 1000, LEASE_MS)).toBeNull();
    expect(claimNext(ctx.db, clock.now(), LEASE_MS)?.id).toBe(second);
  });

  it("backs off from one minute, doubling to six hours, within ±25 %", () => {
    const low = () => 0;
    const high = () => 0.999999;
    expect(retryDelay(1, low)).toBe(45_000);
    expect(retryDelay(1, high)).toBeLessThanOrEqual(75_000);
    expect(retryDelay(2, low)).toBe(90_000);
    expect(retryDelay(5, low)).toBe(0.75 * 16 * 60_000);
    expect(retryDelay(9, low)).toBe(0.75 * 256 * 60_000);
    expect(retryDelay(10, low)).toBe(0.75 * 6 * 3_600_000);
    expect(retryDelay(40, high)).toBeLessThanOrEqual(1.25 * 6 * 3_600_000);
  });

  it("retries a failed try until a day has passed, then gives up with the reason", () => {
    clear();
    const id = enqueue("retry@example.org");
    const created = clock.now();
    let tries = 0;
    for (;;) {
      const taken = claimNext(ctx.db, clock.now(), LEASE_MS);
      if (!taken) break;
      tries++;
      const next = recordOutcome(ctx, taken, { ok: false, permanent: false, reason: "could not talk to 127.0.0.1:9" });
      if (next === null) break;
      expect(row(id)).toMatchObject({ state: "pending", next_attempt_at: next, last_error: "could not talk to 127.0.0.1:9" });
      clock.set(next);
    }
    expect(row(id)).toMatchObject({ state: "failed", attempts: tries, last_error: "could not talk to 127.0.0.1:9 (gave up)" });
    expect(clock.now() - created).toBeLessThanOrEqual(GIVE_UP_MS);
    expect(clock.now() - created).toBeGreaterThan(GIVE_UP_MS - 8 * 3_600_000);
    expect(tries).toBeGreaterThan(8);
    expect(tries).toBeLessThan(16);
  });

  it("marks an accepted message sent", () => {
    clear();
    const id = enqueue("ok@example.org");
    const taken = claimNext(ctx.db, clock.now(), LEASE_MS);
    expect(recordOutcome(ctx, taken as NonNullable<typeof taken>, { ok: true })).toBeNull();
    expect(row(id)).toMatchObject({ state: "sent", sent_at: clock.now(), last_error: null });
    expect(claimNext(ctx.db, clock.now() + LEASE_MS, LEASE_MS)).toBeNull();
  });

  it("purges sent mail after a week and given-up mail after a month, in batches, and keeps the rest", () => {
    clear();
    const now = clock.now();
    const insert = ctx.db.$client.prepare(
      "INSERT INTO mail_outbox (id, kind, to_address, subject, text_body, html_body, created_at, next_attempt_at, sent_at, state) VALUES (?, 'test', 'x@example.org', 's', 't', 'h', ?, ?, ?, ?)",
    );
    withTx(ctx.db, () => {
      for (let i = 0; i < 1200; i++) insert.run(`old-sent-${i}`, now - KEEP_SENT_MS - 10, now, now - KEEP_SENT_MS - 1, "sent");
    });
    insert.run("new-sent", now, now, now - KEEP_SENT_MS + 1, "sent");
    insert.run("old-failed", now - KEEP_FAILED_MS - 1, now, null, "failed");
    insert.run("new-failed", now - KEEP_SENT_MS - 1, now, null, "failed");
    insert.run("old-pending", now - KEEP_FAILED_MS - 1, now, null, "pending");
    expect(purgeSentMail(ctx, now)).toBe(1201);
    const left = (ctx.db.$client.query("SELECT id FROM mail_outbox ORDER BY id").all() as { id: string }[]).map((r) => r.id);
    expect(left).toEqual(["new-failed", "new-sent", "old-pending"]);
  });
});
