import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(), // `sid`
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    /** Sliding: moved forward as the session is used. */
    expiresAt: integer("expires_at").notNull(),
    authTime: integer("auth_time").notNull(),
    amr: text("amr", { mode: "json" }).$type<string[]>().notNull(),
    acr: text("acr").notNull(),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt), index("sessions_revoked_idx").on(t.revokedAt)],
);

/** The short-lived, one-use ticket between a correct password and the second factor. */
export const mfaTokens = sqliteTable(
  "mfa_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What the first step proved: a password, or an account at an upstream provider (`ext`). */
    firstFactor: text("first_factor", { enum: ["pwd", "ext"] })
      .notNull()
      .default("pwd"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  (t) => [index("mfa_tokens_expires_idx").on(t.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
