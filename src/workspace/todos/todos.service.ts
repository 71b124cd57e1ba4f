import { cleanLine } from "../../shared/text.ts";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { AppError, forbidden } from "../../shared/errors.ts";
import { listPermissionsMap } from "../permissions/permissions.ts";
import { canDeleteTodo, canEditTodo, canReorder, canViewSet, findRefusedField, missingCreateKey, type TodoPatchField } from "../permissions/permissions.policy.ts";
import { permissionsFor } from "../permissions/permissions.resolve.ts";
import type { WorkspaceCaller } from "../signin/workspace-auth.ts";
import * as E from "./todos.errors.ts";
import { findSet, findTodo, listSetTodosJson, nextSortOrder, subtreeIds, titleTaken, type TodoRow, todosJson } from "./todos.repo.ts";
import { todos } from "./todos.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;

/** The todo as the API returns it, read after commit for its event. */
const todoView = (ctx: Ctx, teamId: string, id: string) => {
  const row = findTodo(ctx, teamId, id);
  return row ? todosJson(ctx, teamId, [row])[0] : null;
};

const cleanTitle = (title: string | undefined): string => {
  const trimmed = cleanLine(title ?? "");
  if (trimmed === "") throw E.titleRequired();
  return trimmed;
};

const utf8 = new TextEncoder();

/** Spec 2 section 4.2 list, as the bytes of its JSON answer (1,000 todos are about 300 KB). */
export function listTodos(ctx: Ctx, caller: WorkspaceCaller, setId: string): Uint8Array<ArrayBuffer> {
  if (!findSet(ctx, caller.teamId, setId)) throw E.setNotFound();
  const perms = permissionsFor(ctx, caller, setId);
  if (!canViewSet(perms)) throw forbidden("view_todos revoked for this set");
  // The whole answer, UTF-8 encoded, per set and role: it depends on nothing else in the database.
  return ctx.workspace.todos.listAnswers(`${caller.teamId}\n${setId}\n${caller.role}`, () =>
    utf8.encode(`{"todos":${listSetTodosJson(ctx, caller.teamId, setId)},"role":${JSON.stringify(caller.role)},"permissions":${JSON.stringify(listPermissionsMap(perms))}}`),
  );
}

export function createTodo(ctx: Ctx, caller: WorkspaceCaller, setId: string, body: { title?: string; parentId?: string | null }) {
  const parentId = body.parentId ?? null;
  return insertTodo(ctx, { teamId: caller.teamId, setId, parentId, title: body.title, userId: caller.userId }, () => {
    const missing = missingCreateKey(permissionsFor(ctx, caller, setId), { parentId });
    if (missing) throw E.noPermissionKey(missing);
  });
}

/**
 * Adds a todo at the end of its list and announces it; shared by members and share links
 * (`userId` "shared"). `authorize` runs inside the transaction, once the set is known to exist.
 */
export function insertTodo(ctx: Ctx, input: { teamId: string; setId: string; parentId: string | null; title: string | undefined; userId: string }, authorize: () => void) {
  const { teamId, setId, parentId, userId } = input;
  const answer = withTx(ctx.db, () => {
    // Spec 2 section 4.2: an unknown set or a missing permission answers before a bad title.
    if (!findSet(ctx, teamId, setId)) throw E.setNotFound();
    authorize();
    const title = cleanTitle(input.title);
    if (parentId !== null) {
      const parent = findTodo(ctx, teamId, parentId);
      if (!parent || parent.setId !== setId) throw E.parentNotFound();
    }
    if (titleTaken(ctx, setId, parentId, title)) throw E.duplicateTitle();
    const now = ctx.clock.now();
    const row = { id: crypto.randomUUID(), setId, teamId, parentId, userId, title, completed: false, sortOrder: nextSortOrder(ctx, setId, parentId), createdAt: now, updatedAt: now };
    ctx.db.insert(todos).values(row).run();
    return { todo: todosJson(ctx, teamId, [row])[0] };
  });
  ctx.bus.publish({ type: "todo:created", teamId, setId, data: answer.todo });
  return answer;
}

export function patchTodo(ctx: Ctx, caller: WorkspaceCaller, id: string, body: TodoPatch) {
  return updateTodo(ctx, caller.teamId, id, body, (todo, fields) => {
    const refused = findRefusedField(permissionsFor(ctx, caller, todo.setId), { isOwn: todo.userId === caller.userId, fields });
    if (refused) throw new AppError(403, E.PATCH_REFUSALS[refused]);
  });
}

export type TodoPatch = { title?: string; completed?: boolean; sortOrder?: number };

/** Changes the given fields of a todo and announces it; `authorize` sees the todo and the fields. */
export function updateTodo(ctx: Ctx, teamId: string, id: string, body: TodoPatch, authorize: (todo: TodoRow, fields: TodoPatchField[]) => void) {
  const fields = (["title", "completed", "sortOrder"] as const).filter((f) => body[f] !== undefined) as TodoPatchField[];
  if (fields.length === 0) throw E.noUpdates();
  const setId = withTx(ctx.db, () => {
    const todo = findTodo(ctx, teamId, id);
    if (!todo) throw E.todoNotFound();
    authorize(todo, fields);
    const title = body.title === undefined ? undefined : cleanTitle(body.title);
    if (title !== undefined && titleTaken(ctx, todo.setId, todo.parentId, title, todo.id)) throw E.duplicateTitle();
    ctx.db
      .update(todos)
      .set({ ...(title !== undefined && { title }), ...(body.completed !== undefined && { completed: body.completed }), ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }), updatedAt: ctx.clock.now() })
      .where(eq(todos.id, id))
      .run();
    return todo.setId;
  });
  ctx.bus.publish({ type: "todo:updated", teamId, setId, data: todoView(ctx, teamId, id) });
  return { ok: true as const };
}

/** Spec 2 section 3: a todo goes with all its sub-todos and comments (foreign keys cascade). */
export function deleteTodo(ctx: Ctx, caller: WorkspaceCaller, id: string) {
  return removeTodo(ctx, caller.teamId, id, (todo) => {
    if (!canDeleteTodo(permissionsFor(ctx, caller, todo.setId), { isOwn: todo.userId === caller.userId })) throw E.noPermissionToDelete();
  });
}

export function removeTodo(ctx: Ctx, teamId: string, id: string, authorize: (todo: TodoRow) => void) {
  const setId = withTx(ctx.db, () => {
    const todo = findTodo(ctx, teamId, id);
    if (!todo) throw E.todoNotFound();
    authorize(todo);
    ctx.db.delete(todos).where(eq(todos.id, id)).run();
    return todo.setId;
  });
  ctx.bus.publish({ type: "todo:deleted", teamId, setId, data: { id } });
  return { ok: true as const };
}

/** Every todo named must be in this team, and the caller must hold reorder_todos in each set touched. */
export function reorderTodos(ctx: Ctx, caller: WorkspaceCaller, body: { items?: { id: string; sortOrder: number }[]; setId?: string }) {
  const items = body.items ?? [];
  if (items.length === 0) throw E.noItems();
  withTx(ctx.db, () => {
    if (body.setId !== undefined && !findSet(ctx, caller.teamId, body.setId)) throw E.setNotFound();
    const ids = [...new Set(items.map((i) => i.id))];
    const rows: { id: string; setId: string }[] = [];
    for (let i = 0; i < ids.length; i += 500)
      rows.push(...ctx.db.select({ id: todos.id, setId: todos.setId }).from(todos).where(and(eq(todos.teamId, caller.teamId), inArray(todos.id, ids.slice(i, i + 500)))).all());
    if (rows.length !== ids.length) throw E.todoNotFound();
    if (body.setId !== undefined && rows.some((r) => r.setId !== body.setId)) throw E.todoNotFound();
    const sets = new Set(rows.map((r) => r.setId));
    if (body.setId !== undefined) sets.add(body.setId);
    for (const setId of sets) if (!canReorder(permissionsFor(ctx, caller, setId))) throw new AppError(403, "No permission to reorder");
    const now = ctx.clock.now();
    for (const item of items) ctx.db.update(todos).set({ sortOrder: item.sortOrder, updatedAt: now }).where(eq(todos.id, item.id)).run();
  });
  // Spec 2 section 6: todo:reordered only when `setId` is provided.
  if (body.setId !== undefined) ctx.bus.publish({ type: "todo:reordered", teamId: caller.teamId, setId: body.setId, data: { setId: body.setId, items } });
  return { ok: true as const };
}

/** Spec 2 section 4.2 move: the todo becomes a root of the target set; its subtree keeps its shape. */
export function moveTodo(ctx: Ctx, caller: WorkspaceCaller, id: string, body: { targetSetId?: string; insertAt?: "top" | "bottom" }) {
  const targetSetId = body.targetSetId?.trim() ?? "";
  if (targetSetId === "") throw E.targetSetRequired();
  const sourceSetId = withTx(ctx.db, () => {
    const todo = findTodo(ctx, caller.teamId, id);
    if (!todo) throw E.todoNotFound();
    if (!findSet(ctx, caller.teamId, targetSetId)) throw E.targetSetNotFound();
    if (!canEditTodo(permissionsFor(ctx, caller, todo.setId), { isOwn: todo.userId === caller.userId })) throw E.noPermissionToMove();
    if (!permissionsFor(ctx, caller, targetSetId).create_todos) throw E.noPermissionTarget();
    if (titleTaken(ctx, targetSetId, null, todo.title, todo.id)) throw E.duplicateTitle();
    const now = ctx.clock.now();
    let sortOrder: number;
    if (body.insertAt === "top") {
      ctx.db.update(todos).set({ sortOrder: sql`${todos.sortOrder} + 1` }).where(and(eq(todos.setId, targetSetId), isNull(todos.parentId))).run();
      sortOrder = 0;
    } else sortOrder = nextSortOrder(ctx, targetSetId, null);
    const ids = subtreeIds(ctx, id);
    for (let i = 0; i < ids.length; i += 500) ctx.db.update(todos).set({ setId: targetSetId }).where(inArray(todos.id, ids.slice(i, i + 500))).run();
    ctx.db.update(todos).set({ parentId: null, sortOrder, updatedAt: now }).where(eq(todos.id, id)).run();
    return todo.setId;
  });
  // Spec 2 section 6: todo:moved goes to both the source and the target set.
  const data = { todo: todoView(ctx, caller.teamId, id), fromSetId: sourceSetId, toSetId: targetSetId };
  ctx.bus.publish({ type: "todo:moved", teamId: caller.teamId, setId: sourceSetId, data });
  if (targetSetId !== sourceSetId) ctx.bus.publish({ type: "todo:moved", teamId: caller.teamId, setId: targetSetId, data });
  return { ok: true as const };
}
