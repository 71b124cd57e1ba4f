import { and, desc, eq, gt, inArray, lte, min, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type MailRow, mailOutbox } from "./outbox.table.ts";

/** States a row is still owed a try in: waiting, or taken by a sender whose lease may run out. */
const OWED = ["pending", "sending"] as const;

/**
 * Takes the next due row for one try, atomically: one UPDATE ... RETURNING moves it to `sending`,
 * counts the try and leases it until `now + leaseMs`. A sender that dies mid-send leaves the row
 * `sending`; it is due again when the lease ends, and no one takes it before.
 */
export function claimNext(db: Db, now: number, leaseMs: number): MailRow | null {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.state, OWED), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(1);
  const [row] = db
    .update(mailOutbox)
    .set({ state: "sending", attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: now + leaseMs })
    .where(and(eq(mailOutbox.id, sql`(${due})`), inArray(mailOutbox.state, OWED), lte(mailOutbox.nextAttemptAt, now)))
    .returning()
    .all();
  return row ?? null;
}

export function markSent(db: Db, id: string, now: number): void {
  db.update(mailOutbox)
    .set({ state: "sent", sentAt: now, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, "sending")))
    .run();
}

/** Records a failed try: due again at `retryAt`, or, with null, given up for good (`failed`). */
export function markFailed(db: Db, id: string, reason: string, retryAt: number | null): void {
  db.update(mailOutbox)
    .set({ state: retryAt === null ? "failed" : "pending", lastError: reason, ...(retryAt === null ? {} : { nextAttemptAt: retryAt }) })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, "sending")))
    .run();
}

/** When the next owed row falls due (a retry, or a lease running out), or null when none is owed. */
export function nextDueAt(db: Db): number | null {
  return (
    db
      .select({ at: min(mailOutbox.nextAttemptAt) })
      .from(mailOutbox)
      .where(inArray(mailOutbox.state, OWED))
      .get()?.at ?? null
  );
}

/** Makes every row waiting for a retry due now (not those under a lease): a restart is often the operator's fix. */
export function retryWaitingNow(db: Db, now: number): void {
  db.update(mailOutbox)
    .set({ nextAttemptAt: now })
    .where(and(eq(mailOutbox.state, "pending"), gt(mailOutbox.nextAttemptAt, now)))
    .run();
}

/** The latest rows, newest first, for the admin page. */
export function recentMail(db: Db, limit: number): MailRow[] {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit).all();
}
