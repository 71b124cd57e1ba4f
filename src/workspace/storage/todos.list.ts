import { type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { assigneesOrNone } from "./assignee-table.ts";
import type { Assignee, TodoJson } from "./todos.repo.ts";

type Ctx = Pick<AppContext, "db">;

/** A set list's order: by position (spec 2 section 4.2), or by due date, undated last (as compareDue). */
export type TodoOrder = "position" | "due";
const ORDER_BY: Record<TodoOrder, SQL> = {
  position: sql.raw("t.sort_order, t.created_at, t.rowid"),
  due: sql.raw("t.due_date IS NULL, t.due_date, t.due_time IS NOT NULL, t.due_time, t.sort_order, t.created_at, t.rowid"),
};

/**
 * Where a page starts: after the todo made at `createdAt` with `id`. Pages go by creation time and
 * id, which no write changes (a reorder, an edit, a move between sets, a completion), so a walk
 * through the pages returns each todo that stays in the set throughout exactly once, whatever is
 * written meanwhile; a todo added or moved in meanwhile shows on a later page, or in the realtime
 * stream. The first page starts before everything.
 */
export type PageStart = { createdAt: number; id: string };
export const FIRST_PAGE: PageStart = { createdAt: -1, id: "" };

const COLUMNS = sql.raw(`t.id, t.user_id, t.parent_id, t.title, t.completed, t.sort_order, t.due_date, t.due_time, t.created_at, t.updated_at,
  (SELECT count(*) FROM todo_comments c WHERE c.todo_id = t.id) AS comment_count`);
// Row values compare as a tuple and bound the scan of todos_set_created_idx (set_id, created_at, id).
const page = (setId: string, start: PageStart, limit: number) =>
  sql`t.set_id = ${setId} AND (t.created_at, t.id) > (${start.createdAt}, ${start.id}) ORDER BY t.created_at, t.id LIMIT ${limit}`;

type RawTodo = {
  id: string;
  user_id: string;
  parent_id: string | null;
  title: string;
  completed: number;
  sort_order: number;
  due_date: string | null;
  due_time: string | null;
  created_at: number;
  updated_at: number;
  comment_count: number;
};
type RawAssignee = { todo_id: string; user_id: string; name: string | null; username: string | null; avatar_url: string | null };

const iso = (ms: number) => new Date(ms).toISOString();

function toJson(rows: RawTodo[], assigned: RawAssignee[]): TodoJson[] {
  const assignees = new Map<string, Assignee[]>();
  for (const a of assigned) {
    const list = assignees.get(a.todo_id) ?? [];
    list.push({ userId: a.user_id, name: a.name, username: a.username, avatarUrl: a.avatar_url });
    assignees.set(a.todo_id, list);
  }
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    parentId: r.parent_id,
    title: r.title,
    completed: r.completed === 1,
    sortOrder: r.sort_order,
    dueDate: r.due_date,
    dueTime: r.due_time,
    commentCount: r.comment_count,
    assignees: assignees.get(r.id) ?? [],
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  }));
}

/** The assignees of the todos `scope` (a FROM item naming `id`) selects, with their cached names. */
const assigneesOf = (ctx: Ctx, scope: SQL, teamId: string): Promise<RawAssignee[]> =>
  assigneesOrNone(
    ctx.db,
    () =>
      ctx.db.all<RawAssignee>(
        sql`SELECT a.todo_id, a.user_id, m.name, m.username, m.avatar_url
           FROM ${scope} JOIN todo_assignees a ON a.todo_id = p.id
           LEFT JOIN workspace_member_cache m ON m.team_id = ${teamId} AND m.user_id = a.user_id
           ORDER BY a.user_id`,
      ),
    [],
  );

/**
 * Every todo of a set, sub-todos included, by sortOrder (spec 2 section 4.2): two set-scoped
 * statements, not one query per todo. Ties go by creation, and within one millisecond by
 * insertion (rowid), never by the random id.
 */
export async function readSetTodos(ctx: Ctx, teamId: string, setId: string, order: TodoOrder): Promise<TodoJson[]> {
  const rows = await ctx.db.all<RawTodo>(sql`SELECT ${COLUMNS} FROM todos t WHERE t.set_id = ${setId} ORDER BY ${ORDER_BY[order]}`);
  return toJson(rows, await assigneesOf(ctx, sql`(SELECT id FROM todos WHERE set_id = ${setId}) p`, teamId));
}

/** One page of a set's todos (see PageStart), and where the next one starts (null: this was the last). */
export async function readTodoPage(
  ctx: Ctx,
  teamId: string,
  setId: string,
  start: PageStart,
  limit: number,
): Promise<{ todos: TodoJson[]; next: PageStart | null }> {
  const rows = await ctx.db.all<RawTodo>(sql`SELECT ${COLUMNS} FROM todos t WHERE ${page(setId, start, limit + 1)}`);
  const more = rows.length > limit;
  if (more) rows.pop();
  const last = rows.at(-1);
  const assigned = rows.length === 0 ? [] : await assigneesOf(ctx, sql`(SELECT t.id FROM todos t WHERE ${page(setId, start, limit + 1)}) p`, teamId);
  return { todos: toJson(rows, assigned), next: more && last ? { createdAt: last.created_at, id: last.id } : null };
}
