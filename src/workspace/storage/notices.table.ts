import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The daily digest a person was given, per local date of their time zone: the row is written in
 * the transaction that queues the mail, and its key decides, so a restart, a second run or a
 * second process never sends one day's digest twice. Written also when nothing was due (nothing
 * is sent then), so a todo made due later that day waits for the next morning.
 */
export const dueDigestsSent = sqliteTable(
  "due_digests_sent",
  {
    userId: text("user_id").notNull(),
    /** `YYYY-MM-DD` in the zone the digest was read in. */
    localDate: text("local_date").notNull(),
    todoCount: integer("todo_count").notNull(),
    sentAt: integer("sent_at").notNull(),
  },
  // The purge (workspace.purge.ts) finds old rows by when they were sent.
  (t) => [primaryKey({ columns: [t.userId, t.localDate] }), index("due_digests_sent_at_idx").on(t.sentAt)],
);
