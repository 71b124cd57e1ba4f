import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

/** An OpenPGP public key a user published (spec 1 section 2.3 `gpg:*`), as parsed on upload. */
export const gpgKeys = sqliteTable(
  "gpg_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Upper-case hex, as gpg prints it. */
    fingerprint: text("fingerprint").notNull(),
    keyId: text("key_id").notNull(),
    /** The key's user ids: `Name (comment) <email>`, parsed. */
    userIds: text("user_ids", { mode: "json" }).$type<{ uid: string; name: string; email: string }[]>().notNull(),
    algorithm: text("algorithm").notNull(),
    /** Unix ms; null when the key never expires. */
    expiresAt: integer("expires_at"),
    armored: text("armored").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("gpg_keys_user_idx").on(t.userId), uniqueIndex("gpg_keys_user_fingerprint_idx").on(t.userId, t.fingerprint)],
);
