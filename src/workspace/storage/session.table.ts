import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** An authorization request the workspace started, waiting for its callback: one use, short-lived. */
export const wsLoginStates = sqliteTable(
  "ws_login_states",
  {
    state: text("state").primaryKey(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier"),
    returnTo: text("return_to").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  // Pending sign-ins are capped (anyone may start one): counted by expiry.
  (t) => [index("ws_login_states_expires_idx").on(t.expiresAt)],
);

export type WsTeam = { id: string; name: string; role: string; groups: string[] };

/**
 * The workspace's own session (cookie `cairn_ws`): who signed in through the IdP, and their teams.
 * The cookie holds a random value; the row is keyed by its SHA-256, so a copy of the database
 * opens no session.
 */
export const wsSessions = sqliteTable(
  "ws_sessions",
  {
    id: text("id").primaryKey(),
    /** The IdP's `sub`. */
    userId: text("user_id").notNull(),
    username: text("username").notNull().default(""),
    name: text("name").notNull().default(""),
    email: text("email").notNull().default(""),
    /** The IdP's `email_verified` for `email`: workspace notices go to a verified address only. */
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    picture: text("picture").notNull().default(""),
    teams: text("teams", { mode: "json" }).$type<WsTeam[]>().notNull(),
    /** The IdP's access token for its team API, sealed with the instance key; null when none was issued. */
    idpAccessTokenSealed: text("idp_access_token_sealed"),
    /** Sealed too; null when the IdP issued none (the client lacks `offline_access`). */
    idpRefreshTokenSealed: text("idp_refresh_token_sealed"),
    /** When the access token expires (our clock); null when the IdP did not say. */
    idpAccessExpiresAt: integer("idp_access_expires_at"),
    /** The sign-in's ID token, sealed: the `id_token_hint` of the IdP's logout when this session signs out. */
    idpIdTokenSealed: text("idp_id_token_sealed"),
    /** The IdP session (`sid` of the ID token) this one was made from: it ends when that one does. */
    idpSid: text("idp_sid"),
    /** When the IdP last confirmed the account and its teams (sign-in, then at most a minute apart). */
    validatedAt: integer("validated_at").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    // A person's latest session is where workspace notices find their address (notices/recipients.ts).
    index("ws_sessions_user_idx").on(t.userId, t.createdAt),
    index("ws_sessions_expires_idx").on(t.expiresAt),
  ],
);

export type WsSessionRow = typeof wsSessions.$inferSelect;
