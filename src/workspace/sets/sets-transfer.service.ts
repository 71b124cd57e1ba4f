import { and, asc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { comments } from "../storage/comments.table.ts";
import { exportSet, parseImport, assertUniqueSiblings } from "../import-export/import-export.ts";
import { dueOf, type ExportFormat, type SetSnapshot, type TreeComment, type TreeTodo } from "../import-export/tree.ts";
import { canExport, canImport, canManageSets } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { INSERTION_ORDER } from "../storage/todos.repo.ts";
import { memberCache, todos } from "../storage/todos.table.ts";
import { assertFreeName, findSetOrThrow, nextSetOrder, type SetRow, toSetJson } from "../storage/sets.repo.ts";
import { todoSets } from "../storage/sets.table.ts";
import { noPermissionToExport, noPermissionToImport, noPermissionToManageSets, noPermissionToReplace, setIdTaken } from "../storage/workspace.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;
type ImportInput = { format?: string; content?: string; includeComments?: boolean };

/** Spec 2 section 4.1 export (view_todos): the set's tree, with comments when asked for. */
export async function exportTeamSet(ctx: Ctx, caller: MemberActor, setId: string, format: ExportFormat, includeComments: boolean) {
  const set = await findSetOrThrow(ctx, caller.teamId, setId);
  if (!canExport(caller, await permissionsOf(ctx, caller, setId))) throw noPermissionToExport();
  return exportSet(await snapshotOf(ctx, set, includeComments), format, { includeComments });
}

async function snapshotOf(ctx: Ctx, set: SetRow, includeComments: boolean): Promise<SetSnapshot> {
  const rows = await ctx.db.select().from(todos).where(eq(todos.setId, set.id)).orderBy(asc(todos.sortOrder), asc(todos.createdAt), INSERTION_ORDER).all();
  const commentsByTodo = new Map<string, TreeComment[]>();
  if (includeComments && rows.length > 0) {
    const authors = new Map(
      (await ctx.db.select().from(memberCache).where(eq(memberCache.teamId, set.teamId)).all()).map((m) => [m.userId, m.username ?? m.name ?? null]),
    );
    const list = await ctx.db
      .select()
      .from(comments)
      .where(inArray(comments.todoId, sql`(select id from todos where set_id = ${set.id})`))
      .orderBy(asc(comments.createdAt), asc(comments.id))
      .all();
    for (const c of list) {
      const entry = { author: authors.get(c.userId) ?? null, body: c.body, createdAt: new Date(c.createdAt).toISOString() };
      commentsByTodo.set(c.todoId, [...(commentsByTodo.get(c.todoId) ?? []), entry]);
    }
  }
  const nodes = new Map<string, TreeTodo>(
    rows.map((r) => [
      r.id,
      { title: r.title, completed: r.completed, ...dueOf(r), children: [], ...(includeComments ? { comments: commentsByTodo.get(r.id) ?? [] } : {}) },
    ]),
  );
  const roots: TreeTodo[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id) as TreeTodo;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const { id, name, autoRenew, renewTime, timezone, splitCompleted } = set;
  return { id, name, autoRenew, renewTime, timezone, splitCompleted, todos: roots };
}

/** Writes `tree` under `parentId` from `firstOrder` on; returns how many todos it made. */
async function insertTree(
  ctx: Ctx,
  caller: MemberActor,
  setId: string,
  tree: TreeTodo[],
  parentId: string | null,
  firstOrder: number,
  withComments: boolean,
): Promise<number> {
  const now = ctx.clock.now();
  let count = 0;
  for (const [index, todo] of tree.entries()) {
    const id = crypto.randomUUID();
    await ctx.db
      .insert(todos)
      .values({
        id,
        setId,
        teamId: caller.teamId,
        parentId,
        userId: caller.userId,
        title: todo.title.trim(),
        completed: todo.completed,
        dueDate: todo.dueDate ?? null,
        dueTime: todo.dueTime ?? null,
        sortOrder: firstOrder + index,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    if (withComments)
      for (const c of todo.comments ?? []) {
        const at = Date.parse(c.createdAt);
        await ctx.db
          .insert(comments)
          .values({ id: crypto.randomUUID(), todoId: id, teamId: caller.teamId, userId: caller.userId, body: c.body, createdAt: Number.isNaN(at) ? now : at })
          .run();
      }
    count += 1 + (await insertTree(ctx, caller, setId, todo.children, id, 0, withComments));
  }
  return count;
}

const parse = (ctx: Ctx, input: ImportInput) =>
  parseImport(input.format ?? "md", input.content ?? "", { includeComments: input.includeComments === true, now: new Date(ctx.clock.now()) });

/** Spec 2 section 4.1 import into a set: append (top or bottom) or replace, in one transaction. */
export async function importIntoSet(
  ctx: Ctx,
  caller: MemberActor,
  setId: string,
  input: ImportInput & { mode?: "append" | "replace"; insertAt?: "top" | "bottom" },
) {
  await findSetOrThrow(ctx, caller.teamId, setId);
  const perms = await permissionsOf(ctx, caller, setId);
  const mode = input.mode ?? "append";
  if (!perms.create_todos) throw noPermissionToImport();
  if (!canImport(caller, perms, { mode })) throw noPermissionToReplace();
  const snapshot = parse(ctx, input);
  const answer = await withTeamTx(ctx.db, caller.teamId, async () => {
    const roots = and(eq(todos.setId, setId), isNull(todos.parentId));
    if (mode === "replace") await ctx.db.delete(todos).where(eq(todos.setId, setId)).run();
    else
      assertUniqueSiblings(
        snapshot.todos,
        (await ctx.db.select({ title: todos.title }).from(todos).where(roots).all()).map((r) => r.title),
      );
    let first = 0;
    if (input.insertAt === "top") {
      // Existing roots move down to make room, keeping their own order.
      await ctx.db
        .update(todos)
        .set({ sortOrder: sql`${todos.sortOrder} + ${snapshot.todos.length}` })
        .where(roots)
        .run();
    } else {
      const top = (
        await ctx.db
          .select({ top: max(todos.sortOrder) })
          .from(todos)
          .where(roots)
          .get()
      )?.top;
      first = top == null ? 0 : top + 1;
    }
    return { ok: true as const, imported: await insertTree(ctx, caller, setId, snapshot.todos, null, first, input.includeComments === true) };
  });
  // One event for the whole batch: viewers refetch the set instead of replaying hundreds of creations.
  ctx.bus.publish({ type: "set:imported", teamId: caller.teamId, setId, data: { setId, mode, imported: answer.imported } });
  return answer;
}

/** Spec 2 section 4.1 new-set import (manage_sets): `setName` and, for JSON/YAML, `setId` override. */
export async function importNewSet(ctx: Ctx, caller: MemberActor, input: ImportInput & { setName?: string; setId?: string }) {
  if (!canManageSets(caller, await permissionsOf(ctx, caller), { allowMemberCreateSets: false, action: "other" })) throw noPermissionToManageSets();
  const snapshot = parse(ctx, input);
  const structured = (input.format ?? "md") !== "md";
  const answer = await withTeamTx(ctx.db, caller.teamId, async () => {
    const name = await assertFreeName(ctx, caller.teamId, input.setName?.trim() ? input.setName : snapshot.name);
    const taken = async (candidate: string) => (await ctx.db.select({ id: todoSets.id }).from(todoSets).where(eq(todoSets.id, candidate)).get()) !== undefined;
    // A supplied setId must be free (409). The id inside an exported file is kept when free, so a
    // set moves between instances whole; importing a copy next to its original gets a new id.
    if (structured && input.setId !== undefined && (await taken(input.setId))) throw setIdTaken();
    const fromFile = structured ? snapshot.id : undefined;
    const id = structured && input.setId !== undefined ? input.setId : fromFile !== undefined && !(await taken(fromFile)) ? fromFile : crypto.randomUUID();
    const { autoRenew, renewTime, timezone, splitCompleted } = snapshot;
    const row = await ctx.db
      .insert(todoSets)
      .values({
        id,
        teamId: caller.teamId,
        userId: caller.userId,
        name,
        sortOrder: await nextSetOrder(ctx, caller.teamId),
        autoRenew,
        renewTime,
        timezone,
        splitCompleted,
        createdAt: ctx.clock.now(),
      })
      .returning()
      .get();
    const imported = await insertTree(ctx, caller, id, snapshot.todos, null, 0, input.includeComments === true);
    return { ok: true as const, imported, set: toSetJson(row) };
  });
  ctx.bus.publish({ type: "set:created", teamId: caller.teamId, setId: answer.set.id, data: answer.set });
  return answer;
}
