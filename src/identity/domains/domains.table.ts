import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

/** A custom domain a user claims (spec 1 section 2.3 `domains:*`), proven by a DNS TXT record. */
export const userDomains = sqliteTable(
  "user_domains",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Lowercased, in its ASCII (punycode) form. */
    domain: text("domain").notNull(),
    /** The value the TXT record must hold. */
    token: text("token").notNull(),
    verifiedAt: integer("verified_at"),
    lastCheckedAt: integer("last_checked_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("user_domains_user_idx").on(t.userId), index("user_domains_domain_idx").on(t.domain)],
);
