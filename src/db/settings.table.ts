import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Instance-wide key-value settings (configured marker, app config, site settings), values as JSON. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).notNull(),
  updatedAt: integer("updated_at").notNull(),
});
