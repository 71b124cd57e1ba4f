import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Signing keys: private halves sealed with the instance secret (ARCHITECTURE section 1). */
export const signingKeys = sqliteTable("signing_keys", {
  kid: text("kid").primaryKey(),
  alg: text("alg").notNull(),
  /** What the key signs: `session` (session JWTs), later `id_token` and `logout`. */
  use: text("use").notNull(),
  publicJwk: text("public_jwk", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  privateJwkSealed: text("private_jwk_sealed").notNull(),
  createdAt: integer("created_at").notNull(),
  retiredAt: integer("retired_at"),
});
