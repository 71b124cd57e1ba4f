import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

/**
 * One-use links that set a new password: made by an administrator for someone locked out, and
 * (issue 44) asked for by email. Only the token's hash is kept; a newer link for the same person
 * replaces the older ones.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * Why it exists: `admin_link`, an administrator made it (Admin → Users → Reset link); `forgot`,
     * the person asked for it by email ("Forgot password?"), which keeps their second factors.
     */
    purpose: text("purpose", { enum: ["admin_link", "forgot"] }).notNull(),
    /** Who made it: the administrator, or null when the person asked for it themselves. */
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_resets_user_idx").on(t.userId), index("password_resets_expires_idx").on(t.expiresAt)],
);

export type PasswordResetRow = typeof passwordResets.$inferSelect;
