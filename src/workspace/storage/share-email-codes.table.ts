import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { shareLinks } from "./share-links.table.ts";

/**
 * One-time codes mailed to a visitor of a share link that requires them (`requireEmailCode`).
 * Only an HMAC of the code is kept (keyed by the instance, bound to the link and the address), so
 * a copy of the database gives no code away. One use, ten minutes, five wrong tries.
 */
export const shareEmailCodes = sqliteTable(
  "share_email_codes",
  {
    id: text("id").primaryKey(),
    linkId: text("link_id")
      .notNull()
      .references(() => shareLinks.id, { onDelete: "cascade" }),
    /** Trimmed and lower-case, as the allow-list keeps it. */
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  (t) => [index("share_email_codes_link_email_idx").on(t.linkId, t.email), index("share_email_codes_expires_idx").on(t.expiresAt)],
);
