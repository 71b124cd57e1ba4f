import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { todoSets } from "./sets.table.ts";

/** Todos and sub-todos (spec 2 section 2.2); a todo goes with its set, a sub-todo with its parent. */
export const todos = sqliteTable(
  "todos",
  {
    id: text("id").primaryKey(),
    setId: text("set_id")
      .notNull()
      .references(() => todoSets.id, { onDelete: "cascade" }),
    teamId: text("team_id").notNull(),
    parentId: text("parent_id").references((): AnySQLiteColumn => todos.id, { onDelete: "cascade" }),
    /** The creator's IdP id, or `shared` when made through a share link. */
    userId: text("user_id").notNull(),
    title: text("title").notNull(),
    completed: integer("completed", { mode: "boolean" }).notNull().default(false),
    sortOrder: integer("sort_order").notNull(),
    /**
     * A calendar date `YYYY-MM-DD` and optional wall-clock time `HH:MM` in the set's time zone,
     * not an instant: "due Friday" stays Friday when the set's or the team's zone changes, and a
     * date-only due has no hour to shift across midnight. Overdue is decided against "now" read
     * in that zone (contract/due-dates.ts).
     */
    dueDate: text("due_date"),
    dueTime: text("due_time"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("todos_set_idx").on(t.setId, t.parentId, t.sortOrder),
    index("todos_parent_idx").on(t.parentId),
    // Spec 2 section 2.2 "unique among siblings": the check looks one title up, never scans the siblings.
    index("todos_sibling_title_idx").on(t.setId, t.parentId, t.title),
    // The list's pages: keyset on creation, which no write changes (todos.pages.ts).
    index("todos_set_created_idx").on(t.setId, t.createdAt, t.id),
    // The Due soon view: a team's dated todos.
    index("todos_due_idx").on(t.teamId, t.dueDate),
  ],
);

export const todoAssignees = sqliteTable(
  "todo_assignees",
  {
    todoId: text("todo_id")
      .notNull()
      .references(() => todos.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.todoId, t.userId] }), index("todo_assignees_user_idx").on(t.userId)],
);

/** Workspace members as the IdP last described them (names for assignees and lists). */
export const memberCache = sqliteTable(
  "workspace_member_cache",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    username: text("username"),
    name: text("name"),
    avatarUrl: text("avatar_url"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

/** Collapsed groups of the assigned-to-me view, per user and set. */
export const assignedExpand = sqliteTable(
  "assigned_expand",
  {
    userId: text("user_id").notNull(),
    setId: text("set_id").notNull(),
    expanded: integer("expanded", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.setId] })],
);
