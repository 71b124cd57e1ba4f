import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MAIL_KINDS, MAIL_STATES } from "../contract/mail.ts";

/**
 * Mail waiting to be sent, and what became of it (issue 44): written in the transaction of the
 * change it reports, so a restart loses none; the sender (mail/sender.ts) takes rows from here and
 * the admin page lists them. No foreign key to users: an "account deleted" notice outlives the account.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    toAddress: text("to_address").notNull(),
    toName: text("to_name"),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    /** JSON object of the extra headers (List-Unsubscribe), or null. */
    headers: text("headers"),
    userId: text("user_id"),
    createdAt: integer("created_at").notNull(),
    /** Tries begun, counted when a row is taken, so a message that kills the sender still runs out of tries. */
    attempts: integer("attempts").notNull().default(0),
    /** When it is due: the next try, or while `sending`, the end of the sender's lease. */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    sentAt: integer("sent_at"),
    lastError: text("last_error"),
    state: text("state", { enum: MAIL_STATES }).notNull(),
  },
  (t) => [
    index("mail_outbox_due_idx").on(t.state, t.nextAttemptAt),
    index("mail_outbox_created_idx").on(t.createdAt),
    index("mail_outbox_sent_idx").on(t.state, t.sentAt),
    // The purge of given-up mail (outbox.purge.ts) finds it by state and age.
    index("mail_outbox_failed_idx").on(t.state, t.createdAt),
  ],
);

export type MailRow = typeof mailOutbox.$inferSelect;
