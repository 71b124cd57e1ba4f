import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sessions } from "../../identity/sessions/sessions.table.ts";

/**
 * Forward auth's cookie sessions (issue 45): a random token per browser, kept as its SHA-256, tied to
 * the Cairn session it was minted from, so whatever ends that session (sign-out, a revocation, the
 * account's deletion) ends this one. Kept in memory by every process, exact through the
 * `cache_versions` row `forward_auth_sessions` (migration 0039).
 */
export const authzSessions = sqliteTable(
  "forward_auth_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    /** The cookie's own end (its Max-Age): the Cairn session's end when it was minted, which never comes sooner. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("forward_auth_sessions_session_idx").on(t.sessionId), index("forward_auth_sessions_expires_idx").on(t.expiresAt)],
);

export type AuthzSessionRow = typeof authzSessions.$inferSelect;
