import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import type { AppContext } from "../../src/context/context.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { withTx } from "../../src/db/tx.ts";
import { claimNext } from "../../src/mail/outbox.repo.ts";
import { enqueueMail } from "../../src/mail/outbox.service.ts";
import { KEEP_FAILED_MS, KEEP_SENT_MS, purgeSentMail } from "../../src/mail/outbox.purge.ts";
import { mailOutbox } from "../../src/mail/outbox.table.ts";
import { GIVE_UP_MS, LEASE_MS, recordOutcome, retryDelay } from "../../src/mail/sender.ts";
import { createLogger } from "../../src/shared/log.ts";
import { manualClock } from "../helpers/clock.ts";
import { storeEnv } from "../helpers/pg-store.ts";
import { tempDir } from "../helpers/temp.ts";

// Issue 44 item 1: the outbox's rules, without a server: a row is taken by one sender at a time
// under a lease, a failed try is retried with backoff and jitter, mail not accepted within a day
// is given up, and old sent mail is purged.
const clock = manualClock(1_800_000_000_000);
let ctx: AppContext;

beforeAll(async () => {
  // A mail server is configured, but no sender runs: the test takes the rows itself.
  const dataDir = tempDir();
  const env = { CAIRN_DATA: dataDir, CAIRN_SMTP_URL: "smtp://127.0.0.1:9", CAIRN_SMTP_FROM: "cairn@example.org" };
  const config = loadConfig({ ...env, ...(await storeEnv(dataDir, env)) });
  ctx = await bootContext(config, { clock, log: createLogger("silent") });
});
afterAll(() => closeDatabase(ctx.db));

const row = async (id: string) => ((await ctx.db.all(sql`SELECT * FROM mail_outbox WHERE id = ${id}`)) as Record<string, unknown>[])[0];
async function enqueue(to: string): Promise<string> {
  await withTx(ctx.db, () => enqueueMail(ctx, { kind: "test", to, subject: "s", text: "t", html: "h" }));
  return (await ctx.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.toAddress, to)).get())?.id as string;
}
const clear = () => ctx.db.delete(mailOutbox).run();

describe("issue 44: the outbox", () => {
  it("is taken by one sender at a time: a second claim finds nothing until the lease ends", async () => {
    await clear();
    const id = await enqueue("lease@example.org");
    const taken = await claimNext(ctx.db, clock.now(), LEASE_MS);
    expect(taken).toMatchObject({ id, state: "sending", attempts: 1, nextAttemptAt: clock.now() + LEASE_MS });
    expect(await claimNext(ctx.db, clock.now(), LEASE_MS)).toBeNull();
    expect(await claimNext(ctx.db, clock.now() + LEASE_MS - 1, LEASE_MS)).toBeNull();
    // The sender died mid-send: once its lease is over, the row is taken again, the try counted.
    expect(await claimNext(ctx.db, clock.now() + LEASE_MS, LEASE_MS)).toMatchObject({ id, state: "sending", attempts: 2 });
  });

  it("takes the oldest due row first, and none that is not due", async () => {
    await clear();
    const first = await enqueue("first@example.org");
    clock.advance(1000);
    const second = await enqueue("second@example.org");
    expect((await claimNext(ctx.db, clock.now() - 1000, LEASE_MS))?.id).toBe(first);
    expect(await claimNext(ctx.db, clock.now() - 1000, LEASE_MS)).toBeNull();
    expect((await claimNext(ctx.db, clock.now(), LEASE_MS))?.id).toBe(second);
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

  it("retries a failed try until a day has passed, then gives up with the reason", async () => {
    await clear();
    const id = await enqueue("retry@example.org");
    const created = clock.now();
    let tries = 0;
    for (;;) {
      const taken = await claimNext(ctx.db, clock.now(), LEASE_MS);
      if (!taken) break;
      tries++;
      const next = await recordOutcome(ctx, taken, { ok: false, permanent: false, reason: "could not talk to 127.0.0.1:9" });
      if (next === null) break;
      expect(await row(id)).toMatchObject({ state: "pending", next_attempt_at: next, last_error: "could not talk to 127.0.0.1:9" });
      clock.set(next);
    }
    expect(await row(id)).toMatchObject({ state: "failed", attempts: tries, last_error: "could not talk to 127.0.0.1:9 (gave up)" });
    expect(clock.now() - created).toBeLessThanOrEqual(GIVE_UP_MS);
    expect(clock.now() - created).toBeGreaterThan(GIVE_UP_MS - 8 * 3_600_000);
    expect(tries).toBeGreaterThan(8);
    expect(tries).toBeLessThan(16);
  });

  it("marks an accepted message sent", async () => {
    await clear();
    const id = await enqueue("ok@example.org");
    const taken = await claimNext(ctx.db, clock.now(), LEASE_MS);
    expect(await recordOutcome(ctx, taken as NonNullable<typeof taken>, { ok: true })).toBeNull();
    expect(await row(id)).toMatchObject({ state: "sent", sent_at: clock.now(), last_error: null });
    expect(await claimNext(ctx.db, clock.now() + LEASE_MS, LEASE_MS)).toBeNull();
  });

  it("purges sent mail after a week and given-up mail after a month, in batches, and keeps the rest", async () => {
    await clear();
    const now = clock.now();
    const mail = (id: string, createdAt: number, sentAt: number | null, state: "sent" | "failed" | "pending") =>
      ({ id, kind: "test", toAddress: "x@example.org", subject: "s", textBody: "t", htmlBody: "h", createdAt, nextAttemptAt: now, sentAt, state }) as const;
    const oldSent = Array.from({ length: 1200 }, (_, i) => mail(`old-sent-${i}`, now - KEEP_SENT_MS - 10, now - KEEP_SENT_MS - 1, "sent"));
    // In chunks: one statement binds at most a few thousand parameters on SQLite.
    for (let i = 0; i < oldSent.length; i += 200)
      await ctx.db
        .insert(mailOutbox)
        .values(oldSent.slice(i, i + 200))
        .run();
    await ctx.db
      .insert(mailOutbox)
      .values([
        mail("new-sent", now, now - KEEP_SENT_MS + 1, "sent"),
        mail("old-failed", now - KEEP_FAILED_MS - 1, null, "failed"),
        mail("new-failed", now - KEEP_SENT_MS - 1, null, "failed"),
        mail("old-pending", now - KEEP_FAILED_MS - 1, null, "pending"),
      ])
      .run();
    expect(await purgeSentMail(ctx, now)).toBe(1201);
    const left = (await ctx.db.select({ id: mailOutbox.id }).from(mailOutbox).orderBy(asc(mailOutbox.id)).all()).map((r) => r.id);
    expect(left).toEqual(["new-failed", "new-sent", "old-pending"]);
  });
});
