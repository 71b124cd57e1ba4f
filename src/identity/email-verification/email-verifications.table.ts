import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

/**
 * One-use links that prove an account holds its address (`/verify-email?token=`, issue 44). Only
 * the token's hash is kept, with the address it was sent to: a link for an address the account
 * no longer has proves nothing. A newer link for the same account replaces the older ones.
 */
export const emailVerifications = sqliteTable(
  "email_verifications",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("email_verifications_user_idx").on(t.userId), index("email_verifications_expires_idx").on(t.expiresAt)],
);
