import { cleanLine } from "../../shared/text.ts";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { forbidden } from "../../shared/errors.ts";
import { listPermissionsMap } from "../permissions/permissions.ts";
import { reaches, type MemberActor, type WorkspaceActor } from "../permissions/actor.ts";
import {
  canCreateTodo,
  canDeleteTodo,
  canEditTodo,
  canMoveTodo,
  canPatchTodo,
  canReorder,
  canViewSet,
  findRefusedField,
  missingCreateKey,
  type TodoPatchField,
} from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import * as E from "./todos.errors.ts";
import { findSet, findTodo, nextSortOrder, subtreeIds, titleTaken, type TodoRow, todosJson } from "../storage/todos.repo.ts";
import { type ListQuery, listAnswer, parseListQuery } from "./list-answer.ts";
import { todos } from "../storage/todos.table.ts";
import { type DueInput, NO_DUE, nextDue, touchesDue } from "./due.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;

/** The todo as the API returns it, read at the end of its transaction for its event (which leaves after the commit). */
const todoView = async (ctx: Ctx, teamId: string, id: string) => {
  const row = await findTodo(ctx, teamId, id);
  return row ? (await todosJson(ctx, teamId, [row]))[0] : null;
};

const cleanTitle = (title: string | undefined): string => {
  const trimmed = cleanLine(title ?? "");
  if (trimmed === "") throw E.titleRequired();
  return trimmed;
};

/**
 * Spec 2 section 4.2 list, as the bytes of its JSON answer (1,000 todos are about 300 KB): the
 * whole set, or with `limit`/`cursor` one page of it (issue 43); `sort=due` is Cairn's own.
 */
export async function listTodos(ctx: Ctx, caller: MemberActor, setId: string, query: ListQuery = {}): Promise<Uint8Array<ArrayBuffer>> {
  const request = parseListQuery(query);
  const set = await findSet(ctx, caller.teamId, setId);
  if (!set) throw E.setNotFound();
  const perms = await permissionsOf(ctx, caller, setId);
  if (!canViewSet(caller, perms)) throw forbidden("view_todos revoked for this set");
  return listAnswer(ctx, set, request, `"role":${JSON.stringify(caller.role)},"permissions":${JSON.stringify(listPermissionsMap(perms))}`);
}

/** Adds a todo at the end of its list and announces it (a link's todos are made by `shared`). */
export async function createTodo(ctx: Ctx, actor: WorkspaceActor, setId: string, body: { title?: string; parentId?: string | null } & DueInput) {
  const { teamId } = actor;
  const parentId = body.parentId ?? null;
  const answer = await withTeamTx(ctx.db, teamId, async () => {
    // Spec 2 section 4.2: an unknown set or a missing permission answers before a bad title.
    if (!reaches(actor, setId) || !(await findSet(ctx, teamId, setId))) throw E.setNotFound();
    const perms = await permissionsOf(ctx, actor, setId);
    if (!canCreateTodo(actor, perms, { parentId })) throw E.refused(actor, missingCreateKey(actor, perms, { parentId }) ?? "create_todos");
    const title = cleanTitle(body.title);
    const due = nextDue(NO_DUE, body);
    if (parentId !== null) {
      const parent = await findTodo(ctx, teamId, parentId);
      if (!parent || parent.setId !== setId) throw E.parentNotFound();
    }
    if (await titleTaken(ctx, setId, parentId, title)) throw E.duplicateTitle();
    const now = ctx.clock.now();
    const row = {
      id: crypto.randomUUID(),
      setId,
      teamId,
      parentId,
      userId: actor.userId,
      title,
      completed: false,
      sortOrder: await nextSortOrder(ctx, setId, parentId),
      ...due,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.insert(todos).values(row).run();
    return { todo: (await todosJson(ctx, teamId, [row]))[0] };
  });
  ctx.bus.publish({ type: "todo:created", teamId, setId, data: answer.todo });
  return answer;
}

/** The todo, when the actor reaches its set: another set's todo is as unknown to a link as a missing one. */
async function reachableTodo(ctx: Ctx, actor: WorkspaceActor, id: string): Promise<TodoRow> {
  const todo = await findTodo(ctx, actor.teamId, id);
  if (!todo || !reaches(actor, todo.setId)) throw E.todoNotFound();
  return todo;
}

export type TodoPatch = { title?: string; completed?: boolean; sortOrder?: number } & DueInput;

/** Changes the given fields of a todo and announces it. */
export async function patchTodo(ctx: Ctx, actor: WorkspaceActor, id: string, body: TodoPatch) {
  const fields: TodoPatchField[] = (["title", "completed", "sortOrder"] as const).filter((f) => body[f] !== undefined);
  if (touchesDue(body)) fields.push("due");
  if (fields.length === 0) throw E.noUpdates();
  await withTeamTx(ctx.db, actor.teamId, async () => {
    const todo = await reachableTodo(ctx, actor, id);
    const perms = await permissionsOf(ctx, actor, todo.setId);
    const patch = { ownerId: todo.userId, fields };
    if (!canPatchTodo(actor, perms, patch)) throw E.refused(actor, findRefusedField(actor, perms, patch) ?? "title");
    const title = body.title === undefined ? undefined : cleanTitle(body.title);
    if (title !== undefined && (await titleTaken(ctx, todo.setId, todo.parentId, title, todo.id))) throw E.duplicateTitle();
    const due = touchesDue(body) ? nextDue(todo, body) : undefined;
    await ctx.db
      .update(todos)
      .set({
        ...(title !== undefined && { title }),
        ...(body.completed !== undefined && { completed: body.completed }),
        ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }),
        ...due,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(todos.id, id))
      .run();
    ctx.bus.publish({ type: "todo:updated", teamId: actor.teamId, setId: todo.setId, data: await todoView(ctx, actor.teamId, id) });
  });
  return { ok: true as const };
}

/** Spec 2 section 3: a todo goes with all its sub-todos and comments (foreign keys cascade). */
export async function deleteTodo(ctx: Ctx, actor: WorkspaceActor, id: string) {
  const setId = await withTeamTx(ctx.db, actor.teamId, async () => {
    const todo = await reachableTodo(ctx, actor, id);
    if (!canDeleteTodo(actor, await permissionsOf(ctx, actor, todo.setId), { ownerId: todo.userId })) throw E.refused(actor, "delete");
    await ctx.db.delete(todos).where(eq(todos.id, id)).run();
    return todo.setId;
  });
  ctx.bus.publish({ type: "todo:deleted", teamId: actor.teamId, setId, data: { id } });
  return { ok: true as const };
}

/** Every todo named must be in this team (and in `setId` when given), and the actor must hold reorder_todos in each set touched. */
export async function reorderTodos(ctx: Ctx, actor: WorkspaceActor, body: { items?: { id: string; sortOrder: number }[]; setId?: string }) {
  const { teamId } = actor;
  const items = body.items ?? [];
  if (items.length === 0) throw E.noItems();
  await withTeamTx(ctx.db, teamId, async () => {
    if (body.setId !== undefined && (!reaches(actor, body.setId) || !(await findSet(ctx, teamId, body.setId)))) throw E.setNotFound();
    const ids = [...new Set(items.map((i) => i.id))];
    const rows: { id: string; setId: string }[] = [];
    for (let i = 0; i < ids.length; i += 500)
      rows.push(
        ...(await ctx.db
          .select({ id: todos.id, setId: todos.setId })
          .from(todos)
          .where(and(eq(todos.teamId, teamId), inArray(todos.id, ids.slice(i, i + 500))))
          .all()),
      );
    if (rows.length !== ids.length) throw E.todoNotFound();
    if (rows.some((r) => !reaches(actor, r.setId) || (body.setId !== undefined && r.setId !== body.setId))) throw E.todoNotFound();
    const sets = new Set(rows.map((r) => r.setId));
    if (body.setId !== undefined) sets.add(body.setId);
    for (const setId of sets) if (!canReorder(actor, await permissionsOf(ctx, actor, setId))) throw E.refused(actor, "reorder");
    const now = ctx.clock.now();
    for (const item of items) await ctx.db.update(todos).set({ sortOrder: item.sortOrder, updatedAt: now }).where(eq(todos.id, item.id)).run();
  });
  // Spec 2 section 6: todo:reordered only when `setId` is provided.
  if (body.setId !== undefined) ctx.bus.publish({ type: "todo:reordered", teamId, setId: body.setId, data: { setId: body.setId, items } });
  return { ok: true as const };
}

/** Spec 2 section 4.2 move: the todo becomes a root of the target set; its subtree keeps its shape. */
export async function moveTodo(ctx: Ctx, caller: MemberActor, id: string, body: { targetSetId?: string; insertAt?: "top" | "bottom" }) {
  const targetSetId = body.targetSetId?.trim() ?? "";
  if (targetSetId === "") throw E.targetSetRequired();
  await withTeamTx(ctx.db, caller.teamId, async () => {
    const todo = await findTodo(ctx, caller.teamId, id);
    if (!todo) throw E.todoNotFound();
    if (!(await findSet(ctx, caller.teamId, targetSetId))) throw E.targetSetNotFound();
    const source = await permissionsOf(ctx, caller, todo.setId);
    if (!canMoveTodo(caller, source, await permissionsOf(ctx, caller, targetSetId), { ownerId: todo.userId }))
      throw canEditTodo(caller, source, { ownerId: todo.userId }) ? E.noPermissionTarget() : E.noPermissionToMove();
    if (await titleTaken(ctx, targetSetId, null, todo.title, todo.id)) throw E.duplicateTitle();
    const now = ctx.clock.now();
    let sortOrder: number;
    if (body.insertAt === "top") {
      await ctx.db
        .update(todos)
        .set({ sortOrder: sql`${todos.sortOrder} + 1` })
        .where(and(eq(todos.setId, targetSetId), isNull(todos.parentId)))
        .run();
      sortOrder = 0;
    } else sortOrder = await nextSortOrder(ctx, targetSetId, null);
    const ids = await subtreeIds(ctx, id);
    for (let i = 0; i < ids.length; i += 500)
      await ctx.db
        .update(todos)
        .set({ setId: targetSetId })
        .where(inArray(todos.id, ids.slice(i, i + 500)))
        .run();
    await ctx.db.update(todos).set({ parentId: null, sortOrder, updatedAt: now }).where(eq(todos.id, id)).run();
    // Spec 2 section 6: todo:moved goes to both the source and the target set.
    const sourceSetId = todo.setId;
    const data = { todo: await todoView(ctx, caller.teamId, id), fromSetId: sourceSetId, toSetId: targetSetId };
    ctx.bus.publish({ type: "todo:moved", teamId: caller.teamId, setId: sourceSetId, data });
    if (targetSetId !== sourceSetId) ctx.bus.publish({ type: "todo:moved", teamId: caller.teamId, setId: targetSetId, data });
  });
  return { ok: true as const };
}
