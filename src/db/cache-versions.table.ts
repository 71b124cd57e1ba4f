import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One row per table whose rows processes keep in memory (clients, signing keys). Triggers set
 * `version` to a fresh random value on every insert, update or delete of that table, whoever
 * writes (any worker, the CLI, plain SQL), so a cache that saw another value reads again.
 * Random rather than counted: a rolled-back change restores the old value, and a later change
 * must not land on the value the rolled-back one had.
 */
export const cacheVersions = sqliteTable("cache_versions", {
  name: text("name").primaryKey(),
  version: integer("version").notNull(),
});
