import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

/**
 * The browsers an account has signed in from (issue 44): each is a long-lived random cookie,
 * kept here only as a hash salted with the account's id, so one browser's rows for two accounts
 * cannot be matched. A sign-in from a browser not in this list is told to the account's address.
 */
export const knownDevices = sqliteTable(
  "known_devices",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  // The purge (identity.purge.ts) finds browsers long unseen by when they were last seen.
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] }), index("known_devices_last_seen_idx").on(t.lastSeenAt)],
);
