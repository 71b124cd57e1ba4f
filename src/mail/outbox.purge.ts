import { and, eq, lt } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { deleteDue, type PurgeStep } from "../db/batch-delete.ts";
import type { Db } from "../db/client.ts";
import { mailOutbox } from "./outbox.table.ts";

/** Sent mail stays this long on the admin page, then goes (its words need not outlive their news). */
export const KEEP_SENT_MS = 7 * 86_400_000;
/** Given-up mail stays longer: the admin may look for why some mail never arrived. */
export const KEEP_FAILED_MS = 30 * 86_400_000;
/** Rows one step deletes when the outbox is purged all at once (purgeSentMail). */
const BATCH = 500;

/**
 * The outbox's purge steps (issue 43's batched style, context/purges.ts): sent mail older than
 * KEEP_SENT_MS, found through `mail_outbox_sent_idx` (state, sent_at), and given-up mail older
 * than KEEP_FAILED_MS, through `mail_outbox_failed_idx` (state, created_at). Pending mail stays.
 */
export function mailOutboxPurges(db: Db): { sent: PurgeStep; failed: PurgeStep } {
  return {
    sent: deleteDue(db, mailOutbox, (cutoff) => and(eq(mailOutbox.state, "sent"), lt(mailOutbox.sentAt, cutoff)), KEEP_SENT_MS),
    failed: deleteDue(db, mailOutbox, (cutoff) => and(eq(mailOutbox.state, "failed"), lt(mailOutbox.createdAt, cutoff)), KEEP_FAILED_MS),
  };
}

/** Registers the outbox's purge steps with the purge job. */
export function registerMailPurges(ctx: Pick<AppContext, "db" | "purges">): void {
  const steps = mailOutboxPurges(ctx.db);
  ctx.purges.register("sent mail", steps.sent);
  ctx.purges.register("given-up mail", steps.failed);
}

/**
 * Deletes all the outbox's purgeable rows now, a batch per statement until none is left (tests
 * and one-off use; the purge job runs the same steps a batch per turn). Answers how many went.
 */
export async function purgeSentMail(ctx: Pick<AppContext, "db">, now: number): Promise<number> {
  let total = 0;
  for (const step of Object.values(mailOutboxPurges(ctx.db))) {
    for (;;) {
      const deleted = await step(now, BATCH);
      total += deleted;
      if (deleted < BATCH) break;
    }
  }
  return total;
}
