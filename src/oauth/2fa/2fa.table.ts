import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sessions } from "../../identity/sessions/sessions.table.ts";
import { users } from "../../identity/users/users.table.ts";
import { oauthClients } from "../clients/clients.table.ts";

/**
 * Spec 1 section 3.3: a 2FA re-confirmation an app asked for. `created`, then taken by one
 * confirmation (`checking` while its factor is checked), then `approved` with a code, or
 * `closed` (rejected, failed, expired); the code is redeemed once (`redeemed`).
 */
export const twoFactorChallenges = sqliteTable(
  "two_factor_challenges",
  {
    /** SHA-256 of the opaque challenge_id in the page's URL. */
    idHash: text("id_hash").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    /** Pinned at creation: never taken from the browser. */
    redirectUri: text("redirect_uri").notNull(),
    action: text("action").notNull(),
    nonce: text("nonce"),
    codeChallenge: text("code_challenge"),
    /** The app asked for the captcha gate on this challenge (it can switch it on, never off). */
    requireCaptcha: integer("require_captcha", { mode: "boolean" }).notNull(),
    status: text("status", { enum: ["created", "checking", "approved", "closed", "redeemed"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** Who confirmed, how and when; set with the code. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    method: text("method", { enum: ["totp", "passkey", "backup", "sudo"] }),
    verifiedAt: integer("verified_at"),
    codeHash: text("code_hash").unique(),
    codeExpiresAt: integer("code_expires_at"),
  },
  (t) => [index("two_factor_challenges_client_idx").on(t.clientId, t.createdAt), index("two_factor_challenges_expires_idx").on(t.expiresAt)],
);

/** Spec 1 section 3.4: "don't ask again" for one app, on one signed-in device (session), for a while. */
export const sudoWindows = sqliteTable(
  "sudo_windows",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionId, t.clientId] }), index("sudo_windows_expires_idx").on(t.expiresAt)],
);

/** Proof-of-work stamps already spent: the primary-key insert makes each one single use. */
export const powStamps = sqliteTable(
  "pow_stamps",
  {
    stampHash: text("stamp_hash").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("pow_stamps_expires_idx").on(t.expiresAt)],
);
