import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per counted event (a failed login, a TOTP attempt), so limits survive a restart. */
export const rateLimitHits = sqliteTable(
  "rate_limit_hits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bucket: text("bucket").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("rate_limit_hits_bucket_at_idx").on(t.bucket, t.at), index("rate_limit_hits_at_idx").on(t.at)],
);
