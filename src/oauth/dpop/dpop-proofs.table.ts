import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** RFC 9449 section 11.1: each proof's `jti` (with its key thumbprint) is used once; claimed by insert. */
export const dpopProofJtis = sqliteTable(
  "dpop_proof_jtis",
  {
    key: text("key").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("dpop_proof_jtis_expires_idx").on(t.expiresAt)],
);
