import { and, eq, inArray, lt, or } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { changedRows } from "../db/changes.ts";
import { mailOutbox } from "./outbox.table.ts";

/** Sent mail stays this long on the admin page, then goes (its words need not outlive their news). */
export const KEEP_SENT_MS = 7 * 86_400_000;
/** Given-up mail stays longer: the admin may look for why some mail never arrived. */
export const KEEP_FAILED_MS = 30 * 86_400_000;
/** Rows deleted per statement, so the write lock is never held long. */
const BATCH = 500;

/**
 * Deletes sent mail older than KEEP_SENT_MS and given-up mail older than KEEP_FAILED_MS, a small
 * batch per statement until none is left. A separate function (issue 44) so the purge job's
 * rewrite (issue 43) can call it as it likes.
 */
export function purgeSentMail(ctx: Pick<AppContext, "db">, now: number): number {
  const old = or(
    and(eq(mailOutbox.state, "sent"), lt(mailOutbox.sentAt, now - KEEP_SENT_MS)),
    and(eq(mailOutbox.state, "failed"), lt(mailOutbox.createdAt, now - KEEP_FAILED_MS)),
  );
  let total = 0;
  for (;;) {
    const batch = ctx.db.select({ id: mailOutbox.id }).from(mailOutbox).where(old).limit(BATCH);
    const deleted = changedRows(ctx.db.delete(mailOutbox).where(inArray(mailOutbox.id, batch)).run());
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
