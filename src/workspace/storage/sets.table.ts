import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Todo sets (spec 2 section 2.1). `teamId` is an IdP team id or `personal:<userId>`. */
export const todoSets = sqliteTable(
  "todo_sets",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    sortOrder: integer("sort_order").notNull(),
    autoRenew: integer("auto_renew", { mode: "boolean" }).notNull().default(false),
    renewTime: text("renew_time").notNull().default("00:00"),
    timezone: text("timezone").notNull().default(""),
    lastRenewedAt: integer("last_renewed_at"),
    splitCompleted: integer("split_completed", { mode: "boolean" }).notNull().default(false),
    /** Per-set permission overrides (role -> key -> boolean), or null. */
    permissions: text("permissions", { mode: "json" }).$type<Record<string, Record<string, boolean>>>(),
    createdAt: integer("created_at").notNull(),
    /**
     * Moves (to a random value) with every write to the set's todos, their assignees and comments,
     * and the names of its team's members, in the writing transaction: triggers (migration 0037).
     * The list caches compare it, so a write to one set leaves the others' cached, in every process.
     */
    listVersion: integer("list_version").notNull().default(0),
    /** Spec 2 section 2.1 `total` and `completed` (top-level todos), kept by the same triggers. */
    topTotal: integer("top_total").notNull().default(0),
    topCompleted: integer("top_completed").notNull().default(0),
  },
  (t) => [uniqueIndex("todo_sets_team_name_idx").on(t.teamId, t.name), index("todo_sets_team_order_idx").on(t.teamId, t.sortOrder)],
);
