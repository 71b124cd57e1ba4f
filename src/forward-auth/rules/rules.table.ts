import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Header names a rule puts in place of the defaults; an absent one keeps its default. */
export type HeaderNames = { user?: string; email?: string; name?: string; groups?: string };
/** Who passes a rule: several kinds are alternatives. */
export type RuleAllow = { everyone: boolean; teams: string[]; groups: string[]; admins: boolean };

/**
 * Forward auth's rules per protected app (issue 45): the first whose host, method and path match
 * decides. Kept in memory by every process (rules.cache.ts), which triggers keep exact:
 * `cache_versions` row `forward_auth_rules` (migration 0038). Lists and objects are JSON text.
 * Teams and groups are named by id without a foreign key: a rule naming a deleted team lets no one
 * in through it, and stays for the admin to see and fix.
 */
export const forwardAuthRules = sqliteTable(
  "forward_auth_rules",
  {
    id: text("id").primaryKey(),
    /** Lower-case host, optional `:port`; `*.` in front matches any deeper host. */
    host: text("host").notNull(),
    pathPrefixes: text("path_prefixes", { mode: "json" }).$type<string[]>().notNull(),
    methods: text("methods", { mode: "json" }).$type<string[]>().notNull(),
    allow: text("allow", { mode: "json" }).$type<RuleAllow>().notNull(),
    requireMfa: integer("require_mfa", { mode: "boolean" }).notNull(),
    bypassPaths: text("bypass_paths", { mode: "json" }).$type<string[]>().notNull(),
    headers: text("headers", { mode: "json" }).$type<HeaderNames>().notNull(),
    /** The rule's place in the list, from 0: the lowest that matches wins (ties by creation). */
    position: integer("position").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("forward_auth_rules_position_idx").on(t.position, t.createdAt)],
);

export type RuleRow = typeof forwardAuthRules.$inferSelect;
