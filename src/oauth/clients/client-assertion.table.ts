import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** RFC 7523 section 3: a client assertion's jti is accepted once (until it expires). */
export const assertionJtis = sqliteTable(
  "client_assertion_jtis",
  {
    key: text("key").primaryKey(), // client_id + jti
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("client_assertion_jtis_expires_idx").on(t.expiresAt)],
);
