import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { AppError } from "../../shared/errors.ts";
import * as E from "../todos/todos.errors.ts";
import { findSet, listSetTodosJson, type SetRow } from "../todos/todos.repo.ts";
import { insertTodo, removeTodo, type TodoPatch, updateTodo } from "../todos/todos.service.ts";
import { todos } from "../todos/todos.table.ts";
import { type Capabilities, capabilitiesOf, emailAllowed, findByToken, type ShareLinkRow } from "./share-links.repo.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;
/** Spec 2 section 2.2: todos written through a link are recorded as made by `shared`. */
export const SHARED_USER_ID = "shared";

export type OpenLink = { link: ShareLinkRow; set: SetRow; capabilities: Capabilities };

const refuse = (what: string) => new AppError(403, `This link does not allow ${what}`);
const PATCH_CAPABILITY = {
  title: ["canEdit", "editing"],
  completed: ["canComplete", "completing"],
  sortOrder: ["canReorder", "reordering"],
} as const;

/** The link and its set, or the public error table's answer: unknown token, deleted set. */
export function resolveLink(ctx: Ctx, token: string): { link: ShareLinkRow; set: SetRow } {
  const link = findByToken(ctx, token);
  if (!link) throw new AppError(404, "Share link not found");
  const set = link.setDeletedAt === null ? findSet(ctx, link.teamId, link.setId) : undefined;
  if (!set) throw new AppError(404, "Set not found");
  return { link, set };
}

/**
 * A link opened by a visitor: the allow-list (when set) must name their email, passed as a query
 * parameter or body field (spec 2 section 4.4). GET adds `requiresEmail: true` to the refusal.
 */
export function openLink(ctx: Ctx, token: string, email: string | undefined, { onRead = false } = {}): OpenLink {
  const { link, set } = resolveLink(ctx, token);
  if (!emailAllowed(link.allowedEmails, email)) throw new AppError(403, "Access denied", "email missing or not on the allow-list", onRead ? { fields: { requiresEmail: true } } : {});
  return { link, set, capabilities: capabilitiesOf(link) };
}

/** GET /api/shared/:token as JSON text (the todos come pre-serialised from the list cache). */
export function readShared(ctx: Ctx, token: string, email: string | undefined): string {
  const { link, set, capabilities } = openLink(ctx, token, email, { onRead: true });
  // A link without canView still says what it allows (a drop box: add only), but shows no todos.
  const list = capabilities.canView ? listSetTodosJson(ctx, link.teamId, set.id) : "[]";
  const head = { set: { id: set.id, name: set.name }, permissions: capabilities, requiresEmail: link.allowedEmails !== "" };
  return `${JSON.stringify(head).slice(0, -1)},"todos":${list}}`;
}

export function createShared(ctx: Ctx, token: string, body: { title?: string; parentId?: string | null; email?: string }) {
  const { link, set, capabilities } = openLink(ctx, token, body.email);
  if (!capabilities.canCreate) throw refuse("creating todos");
  return insertTodo(ctx, { teamId: link.teamId, setId: set.id, parentId: body.parentId ?? null, title: body.title, userId: SHARED_USER_ID }, () => {});
}

export function patchShared(ctx: Ctx, token: string, todoId: string, body: TodoPatch & { email?: string }) {
  const { link, set, capabilities } = openLink(ctx, token, body.email);
  return updateTodo(ctx, link.teamId, todoId, body, (todo, fields) => {
    // Another set's todo is as unknown here as a missing one.
    if (todo.setId !== set.id) throw E.todoNotFound();
    for (const field of fields) {
      const [capability, what] = PATCH_CAPABILITY[field];
      if (!capabilities[capability]) throw refuse(what);
    }
  });
}

export function deleteShared(ctx: Ctx, token: string, todoId: string, email: string | undefined) {
  const { link, set, capabilities } = openLink(ctx, token, email);
  if (!capabilities.canDelete) throw refuse("deleting");
  return removeTodo(ctx, link.teamId, todoId, (todo) => {
    if (todo.setId !== set.id) throw E.todoNotFound();
  });
}

export function reorderShared(ctx: Ctx, token: string, body: { items?: { id: string; sortOrder: number }[]; email?: string }) {
  const { link, set, capabilities } = openLink(ctx, token, body.email);
  if (!capabilities.canReorder) throw refuse("reordering");
  const items = body.items ?? [];
  if (items.length === 0) throw E.noItems();
  withTx(ctx.db, () => {
    const ids = [...new Set(items.map((i) => i.id))];
    let found = 0;
    for (let i = 0; i < ids.length; i += 500)
      found += ctx.db.select({ id: todos.id }).from(todos).where(and(eq(todos.setId, set.id), inArray(todos.id, ids.slice(i, i + 500)))).all().length;
    if (found !== ids.length) throw E.todoNotFound();
    const now = ctx.clock.now();
    for (const item of items) ctx.db.update(todos).set({ sortOrder: item.sortOrder, updatedAt: now }).where(eq(todos.id, item.id)).run();
  });
  ctx.bus.publish({ type: "todo:reordered", teamId: link.teamId, setId: set.id, data: { setId: set.id, items } });
  return { ok: true as const };
}
