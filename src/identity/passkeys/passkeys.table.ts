import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(), // credential id, base64url
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(), // COSE key, base64url
    counter: integer("counter").notNull(),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/** WebAuthn challenges: one use, short-lived, bound to what they were issued for. */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["register", "login", "mfa", "step-up"] }).notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  // Anyone may ask for sign-in options: pending challenges are capped, counted by expiry.
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);
