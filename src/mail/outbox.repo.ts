import { and, desc, eq, gt, inArray, lte, min, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type MailRow, mailOutbox } from "./outbox.table.ts";

/** States a row is still owed a try in: waiting, or taken by a sender whose lease may run out. */
const OWED = ["pending", "sending"] as const;

/**
 * Takes the next due row for one try, atomically: one UPDATE ... RETURNING moves it to `sending`,
 * counts the try and leases it until `now + leaseMs`. A sender that dies mid-send leaves the row
 * `sending`; it is due again when the lease ends, and no one takes it before. The conditions are
 * checked again on the row as updated: of two senders that picked the same row (instances on
 * PostgreSQL, READ COMMITTED), the second finds it leased and takes nothing. There the pick also
 * skips rows another sender holds (FOR UPDATE SKIP LOCKED), so that one takes the next instead.
 */
export async function claimNext(db: Db, now: number, leaseMs: number): Promise<MailRow | null> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.state, OWED), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(1);
  const pick = db.$dialect === "postgres" ? sql`(${due} for update skip locked)` : sql`(${due})`;
  const [row] = await db
    .update(mailOutbox)
    .set({ state: "sending", attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: now + leaseMs })
    .where(and(eq(mailOutbox.id, pick), inArray(mailOutbox.state, OWED), lte(mailOutbox.nextAttemptAt, now)))
    .returning()
    .all();
  return row ?? null;
}

export async function markSent(db: Db, id: string, now: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ state: "sent", sentAt: now, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, "sending")))
    .run();
}

/** Records a failed try: due again at `retryAt`, or, with null, given up for good (`failed`). */
export async function markFailed(db: Db, id: string, reason: string, retryAt: number | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ state: retryAt === null ? "failed" : "pending", lastError: reason, ...(retryAt === null ? {} : { nextAttemptAt: retryAt }) })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, "sending")))
    .run();
}

/** When the next owed row falls due (a retry, or a lease running out), or null when none is owed. */
export async function nextDueAt(db: Db): Promise<number | null> {
  const row = await db
    .select({ at: min(mailOutbox.nextAttemptAt) })
    .from(mailOutbox)
    .where(inArray(mailOutbox.state, OWED))
    .get();
  return row?.at ?? null;
}

/** Makes every row waiting for a retry due now (not those under a lease): a restart is often the operator's fix. */
export async function retryWaitingNow(db: Db, now: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ nextAttemptAt: now })
    .where(and(eq(mailOutbox.state, "pending"), gt(mailOutbox.nextAttemptAt, now)))
    .run();
}

/** The latest rows, newest first, for the admin page. */
export async function recentMail(db: Db, limit: number): Promise<MailRow[]> {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit).all();
}
