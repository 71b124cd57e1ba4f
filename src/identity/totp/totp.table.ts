import { index, integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

export const totpCredentials = sqliteTable("totp_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretSealed: text("secret_sealed").notNull(),
  /** Null while enrolment waits for the first code. */
  confirmedAt: integer("confirmed_at"),
  /** The last accepted time step: a code is never accepted twice. */
  lastTimeStep: integer("last_time_step"),
  createdAt: integer("created_at").notNull(),
});

export const backupCodes = sqliteTable(
  "backup_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("backup_codes_user_idx").on(t.userId), unique("backup_codes_user_code").on(t.userId, t.codeHash)],
);
