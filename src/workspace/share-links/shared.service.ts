import type { ShareCapabilities, ShareCapability } from "../../contract/workspace.ts";
import type { AppContext } from "../../context/context.ts";
import { refused, type TodoRefusal } from "../todos/todos.errors.ts";
import { findSet, listSetTodosJson, type SetRow } from "../storage/todos.repo.ts";
import { createTodo, deleteTodo, patchTodo, reorderTodos, type TodoPatch } from "../todos/todos.service.ts";
import { SHARED_USER_ID, type ShareLinkActor } from "../permissions/actor.ts";
import { capabilitiesOf, emailAllowed, findByToken, type ShareLinkRow } from "../storage/share-links.repo.ts";
import { accessDenied, linkNotFound, setNotFound } from "../storage/workspace.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;

export type OpenLink = { link: ShareLinkRow; set: SetRow; capabilities: ShareCapabilities };

/** The link and its set, or the public error table's answer: unknown token, deleted set. */
export function resolveLink(ctx: Ctx, token: string): { link: ShareLinkRow; set: SetRow } {
  const link = findByToken(ctx, token);
  if (!link) throw linkNotFound();
  const set = link.setDeletedAt === null ? findSet(ctx, link.teamId, link.setId) : undefined;
  if (!set) throw setNotFound();
  return { link, set };
}

/**
 * A link opened by a visitor: the allow-list (when set) must name their email, passed as a query
 * parameter or body field (spec 2 section 4.4). GET adds `requiresEmail: true` to the refusal.
 */
export function openLink(ctx: Ctx, token: string, email: string | undefined, { onRead = false } = {}): OpenLink {
  const { link, set } = resolveLink(ctx, token);
  if (!emailAllowed(link.allowedEmails, email)) throw accessDenied(onRead);
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

/** The link's visitor as an actor: the same todo services as a member's, with the link's capabilities. */
const actorOf = ({ link, set, capabilities }: OpenLink): ShareLinkActor => ({
  kind: "share_link",
  teamId: link.teamId,
  userId: SHARED_USER_ID,
  setId: set.id,
  linkId: link.id,
  capabilities,
});

// A link's flags are known before anything is looked up, so a write the link never allows is
// refused first (spec 2 section 4.4's table); the service then applies the same rule per todo.
function openFor(ctx: Ctx, token: string, email: string | undefined, capability: ShareCapability, refusal: TodoRefusal): ShareLinkActor {
  const open = openLink(ctx, token, email);
  if (!open.capabilities[capability]) throw refused(actorOf(open), refusal);
  return actorOf(open);
}

export function createShared(ctx: Ctx, token: string, body: { title?: string; parentId?: string | null; email?: string }) {
  const actor = openFor(ctx, token, body.email, "canCreate", "create_todos");
  return createTodo(ctx, actor, actor.setId, body);
}

export function patchShared(ctx: Ctx, token: string, todoId: string, body: TodoPatch & { email?: string }) {
  return patchTodo(ctx, actorOf(openLink(ctx, token, body.email)), todoId, body);
}

export function deleteShared(ctx: Ctx, token: string, todoId: string, email: string | undefined) {
  return deleteTodo(ctx, openFor(ctx, token, email, "canDelete", "delete"), todoId);
}

export function reorderShared(ctx: Ctx, token: string, body: { items?: { id: string; sortOrder: number }[]; email?: string }) {
  const actor = openFor(ctx, token, body.email, "canReorder", "reorder");
  return reorderTodos(ctx, actor, { items: body.items, setId: actor.setId });
}
