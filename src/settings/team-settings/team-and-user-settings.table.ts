import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Team settings (spec 3 section 2.3) and the team's permission matrix, per IdP team. */
export const teamSettings = sqliteTable("team_settings", {
  teamId: text("team_id").primaryKey(),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  permissions: text("permissions", { mode: "json" }).$type<Record<string, Record<string, boolean>>>(),
  updatedAt: integer("updated_at").notNull(),
});

/** User settings (spec 3 section 2.4); a user who never saved has no row and gets `{}`. */
export const userSettings = sqliteTable("user_settings", {
  userId: text("user_id").primaryKey(),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});
