import { sql } from "drizzle-orm";
import { index, integer, type SQLiteColumn, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../../identity/users/users.table.ts";
import { oauthClients } from "../clients/clients.table.ts";

const client = () =>
  text("client_id")
    .notNull()
    .references(() => oauthClients.clientId, { onDelete: "cascade" });
const user = () =>
  text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** What a user granted a client in one authorization; every token hangs off one grant. */
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    clientId: client(),
    userId: user(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    sid: text("sid"),
    authTime: integer("auth_time").notNull(),
    amr: text("amr", { mode: "json" }).$type<string[]>().notNull(),
    acr: text("acr").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Refresh tokens of the grant never live past this (rotation does not extend it). */
    refreshExpiresAt: integer("refresh_expires_at"),
    revokedAt: integer("revoked_at"),
    /** RFC 9449: the key thumbprint the grant's tokens are bound to; its refreshes need a proof from that key. */
    dpopJkt: text("dpop_jkt"),
    /** RFC 8707: the resources (audiences) granted; empty when none was named. */
    resources: text("resources", { mode: "json" }).$type<string[]>().notNull().default([]),
    /**
     * RFC 8693: the grants this one's tokens were exchanged from, nearest first (empty for a grant
     * the user made). Its tokens live only while every one of them does.
     */
    lineage: text("lineage", { mode: "json" }).$type<string[]>().notNull().default([]),
  },
  // The purge finds ended grants by these (jobs/purge.ts): when the refresh window (or, without one, the sign-in) ended, and when revoked.
  (t) => [
    index("oauth_grants_user_idx").on(t.userId, t.clientId),
    index("oauth_grants_end_idx").on(t.refreshExpiresAt, t.createdAt),
    index("oauth_grants_revoked_idx").on(t.revokedAt),
  ],
);

/** RFC 6749 section 4.1.2: short-lived, used once; the hash is the key. */
export const authorizationCodes = sqliteTable(
  "authorization_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    clientId: client(),
    userId: user(),
    redirectUri: text("redirect_uri").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    codeChallenge: text("code_challenge"),
    nonce: text("nonce"),
    sid: text("sid"),
    authTime: integer("auth_time").notNull(),
    amr: text("amr", { mode: "json" }).$type<string[]>().notNull(),
    acr: text("acr").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
    /** The grant the redemption created: a second redemption revokes it. */
    grantId: text("grant_id"),
    /** RFC 8707: the resources named at authorization. */
    resources: text("resources", { mode: "json" }).$type<string[]>().notNull().default([]),
  },
  (t) => [index("authorization_codes_expires_idx").on(t.expiresAt)],
);

/**
 * The key columns of a token table (issue 12). The row id travels in the token (`token-key.ts`),
 * so a new row goes to the end of one B-tree, a page the inserts of one group commit share,
 * instead of to a random place in a hash index. `token_hash` is the SHA-256 of the secret part.
 * No token references its grant by foreign key: every use looks the grant up, so a token whose
 * grant is gone is dead, and a cascade would need an index on `grant_id`, another random page.
 */
export const tokenKeyColumns = () => ({
  id: integer("id").primaryKey(),
  tokenHash: text("token_hash").notNull(),
  /** Issued before tokens carried their id (migration 0024): found by hash, through a partial index new rows never enter. */
  legacy: integer("legacy", { mode: "boolean" }).notNull().default(false),
});

/** The hash lookup of `legacy` tokens only. */
export const legacyTokenIndex = (name: string, t: { tokenHash: SQLiteColumn }) => uniqueIndex(name).on(t.tokenHash).where(sql`legacy = 1`);

export const accessTokens = sqliteTable(
  "access_tokens",
  {
    ...tokenKeyColumns(),
    grantId: text("grant_id").notNull(),
    clientId: client(),
    userId: user(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** RFC 9449 `cnf.jkt`: set for a DPoP-bound token, which is only accepted with a proof from that key. */
    jkt: text("jkt"),
    /** RFC 8707 audiences of this token (empty: the client itself). */
    audience: text("audience", { mode: "json" }).$type<string[]>().notNull().default([]),
  },
  // New tokens expire in issue order: the expiry index grows at its end, as the table does.
  (t) => [legacyTokenIndex("access_tokens_legacy_idx", t), index("access_tokens_expires_idx").on(t.expiresAt)],
);

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    ...tokenKeyColumns(),
    grantId: text("grant_id").notNull(),
    clientId: client(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** Set when rotated: presenting it again is a replay and ends the whole grant. */
    supersededAt: integer("superseded_at"),
  },
  (t) => [legacyTokenIndex("refresh_tokens_legacy_idx", t), index("refresh_tokens_expires_idx").on(t.expiresAt)],
);
