import { and, asc, count, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { Db } from "../../db/client.ts";
import { listCache } from "./list-cache.ts";
import { comments } from "./comments.table.ts";
import { todoSets } from "./sets.table.ts";
import { memberCache, todoAssignees, todos } from "./todos.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";
import { assigneesOrNone } from "./assignee-table.ts";

type Ctx = Pick<AppContext, "db" | "workspace">;
export type TodoRow = typeof todos.$inferSelect;
export type SetRow = typeof todoSets.$inferSelect;
export type Assignee = { userId: string; name: string | null; username: string | null; avatarUrl: string | null };

const iso = (ms: number) => new Date(ms).toISOString();

/** A set's list answers in memory (list-cache.ts), at most this many bytes for all sets together. */
const LIST_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The todos' hot reads, made once per app: the set lookup every todo call starts with (prepared;
 * it reads the set's list version too), and the cache of list answers, kept per set's version.
 */
export function createTodosRepo({ db }: { db: Db }) {
  // Ownership in the WHERE clause: a set of another team is the same 404 as a missing one.
  const set = onFirstUse(() =>
    db
      .select()
      .from(todoSets)
      .where(and(eq(todoSets.id, sql.placeholder("setId")), eq(todoSets.teamId, sql.placeholder("teamId"))))
      .prepare(),
  );
  return {
    findSet: (teamId: string, setId: string): Promise<SetRow | undefined> => set().get({ setId, teamId }),
    answers: listCache<Uint8Array<ArrayBuffer>>(LIST_CACHE_BYTES),
  };
}

export type TodosRepo = ReturnType<typeof createTodosRepo>;

/**
 * The order todos were inserted in, the last tie-break of an ordered read (as the list's): SQLite's
 * row id, and on PostgreSQL the `rowid` column todos keep for it (migrate-to-postgres copies it).
 */
export const INSERTION_ORDER = sql`"todos"."rowid"`;

export const findSet = (ctx: Pick<AppContext, "workspace">, teamId: string, setId: string): Promise<SetRow | undefined> =>
  ctx.workspace.todos.findSet(teamId, setId);

export const findTodo = (ctx: Ctx, teamId: string, id: string): Promise<TodoRow | undefined> =>
  ctx.db
    .select()
    .from(todos)
    .where(and(eq(todos.id, id), eq(todos.teamId, teamId)))
    .get();

/** Spec 2 section 2.2: a title is unique among its siblings (same set, same parent). */
export async function titleTaken(ctx: Ctx, setId: string, parentId: string | null, title: string, exceptId?: string): Promise<boolean> {
  const conds = [eq(todos.setId, setId), parentId === null ? isNull(todos.parentId) : eq(todos.parentId, parentId), eq(todos.title, title)];
  if (exceptId) conds.push(ne(todos.id, exceptId));
  return (
    (await ctx.db
      .select({ id: todos.id })
      .from(todos)
      .where(and(...conds))
      .get()) !== undefined
  );
}

/** The next sortOrder at the end of a list (roots of a set, or a parent's sub-list). */
export async function nextSortOrder(ctx: Ctx, setId: string, parentId: string | null): Promise<number> {
  const row = await ctx.db
    .select({ max: sql<number | null>`max(${todos.sortOrder})` })
    .from(todos)
    .where(and(eq(todos.setId, setId), parentId === null ? isNull(todos.parentId) : eq(todos.parentId, parentId)))
    .get();
  return row?.max == null ? 0 : row.max + 1;
}

/** Assignees of the given todos, resolved from the member cache of the team. */
export async function assigneesByTodo(ctx: Ctx, teamId: string, todoIds: string[]): Promise<Map<string, Assignee[]>> {
  const map = new Map<string, Assignee[]>();
  if (todoIds.length === 0) return map;
  const rows = await ctx.db
    .select({
      todoId: todoAssignees.todoId,
      userId: todoAssignees.userId,
      name: memberCache.name,
      username: memberCache.username,
      avatarUrl: memberCache.avatarUrl,
    })
    .from(todoAssignees)
    .leftJoin(memberCache, and(eq(memberCache.teamId, teamId), eq(memberCache.userId, todoAssignees.userId)))
    .where(inArray(todoAssignees.todoId, todoIds))
    .orderBy(asc(todoAssignees.userId))
    .all();
  for (const { todoId, ...a } of rows) {
    const list = map.get(todoId) ?? [];
    list.push({ userId: a.userId, name: a.name ?? null, username: a.username ?? null, avatarUrl: a.avatarUrl ?? null });
    map.set(todoId, list);
  }
  return map;
}

async function commentCounts(ctx: Ctx, todoIds: string[]): Promise<Map<string, number>> {
  if (todoIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ todoId: comments.todoId, n: count() })
    .from(comments)
    .where(inArray(comments.todoId, todoIds))
    .groupBy(comments.todoId)
    .all();
  return new Map(rows.map((r) => [r.todoId, r.n]));
}

/** Spec 2 section 2.2 Todo JSON. commentCount is counted, never stored, so it is always true. */
export function todoJson(row: TodoRow, assignees: Assignee[], commentCount: number) {
  return {
    id: row.id,
    userId: row.userId,
    parentId: row.parentId ?? null,
    title: row.title,
    completed: row.completed,
    sortOrder: row.sortOrder,
    dueDate: row.dueDate ?? null,
    dueTime: row.dueTime ?? null,
    commentCount,
    assignees,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
export type TodoJson = ReturnType<typeof todoJson>;

export async function todosJson(ctx: Ctx, teamId: string, rows: TodoRow[]): Promise<TodoJson[]> {
  const ids = rows.map((r) => r.id);
  // SQLite limits bound variables; a set's todos are few enough, but chunk to stay safe.
  const assignees = new Map<string, Assignee[]>();
  const counts = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const [k, v] of await assigneesOrNone(ctx.db, () => assigneesByTodo(ctx, teamId, chunk), new Map())) assignees.set(k, v);
    for (const [k, v] of await commentCounts(ctx, chunk)) counts.set(k, v);
  }
  return rows.map((r) => todoJson(r, assignees.get(r.id) ?? [], counts.get(r.id) ?? 0));
}

/** Ids of a todo and all its descendants. */
export async function subtreeIds(ctx: Ctx, id: string): Promise<string[]> {
  const rows = await ctx.db.all<{ id: string }>(
    // The first row from todos itself, not a bound text: PostgreSQL wants both halves of a recursive query of one type and collation.
    sql`WITH RECURSIVE tree(id) AS (SELECT id FROM todos WHERE id = ${id} UNION ALL SELECT t.id FROM todos t JOIN tree ON t.parent_id = tree.id) SELECT id FROM tree`,
  );
  return rows.map((r) => r.id);
}
