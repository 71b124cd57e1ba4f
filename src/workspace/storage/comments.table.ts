import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { todos } from "./todos.table.ts";

export const comments = sqliteTable(
  "todo_comments",
  {
    id: text("id").primaryKey(),
    todoId: text("todo_id")
      .notNull()
      .references(() => todos.id, { onDelete: "cascade" }),
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("todo_comments_todo_idx").on(t.todoId, t.createdAt)],
);
