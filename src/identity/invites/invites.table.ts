import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

export const invitations = sqliteTable("invitations", {
  id: text("id").primaryKey(),
  codeHash: text("code_hash").notNull().unique(),
  /** When set, only this (normalized) email may use the invitation. */
  email: text("email"),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  usedBy: text("used_by").references(() => users.id, { onDelete: "set null" }),
  /** When the link was mailed to `email` (issue 44): registering with it then proves that address. */
  mailedAt: integer("mailed_at"),
});
