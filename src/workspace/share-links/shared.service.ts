import type { ShareCapability } from "../../contract/workspace.ts";
import type { AppContext } from "../../context/context.ts";
import { refused, type TodoRefusal } from "../todos/todos.errors.ts";
import { findSet, type SetRow } from "../storage/todos.repo.ts";
import { type ListQuery, listAnswer, noTodosPart, parseListQuery } from "../todos/list-answer.ts";
import { createTodo, deleteTodo, patchTodo, reorderTodos, type TodoPatch } from "../todos/todos.service.ts";
import { SHARED_USER_ID, type ShareLinkActor } from "../permissions/actor.ts";
import { capabilitiesOf, findByToken, type ShareLinkRow } from "../storage/share-links.repo.ts";
import { needsEmailCode, visitorAdmitted } from "./email-grant.ts";
import { accessDenied, linkNotFound, setNotFound } from "../storage/workspace.errors.ts";
import { readTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";
import { effectiveTimezone } from "../renew/renew.schedule.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "secrets" | "workspace">;

/** One request through a share link: the link, its set, and its visitor as an actor. */
export type SharedVisit = { link: ShareLinkRow; set: SetRow; actor: ShareLinkActor };

/** The link and its set, or the public error table's answer: unknown token, deleted set. */
async function resolveLink(ctx: Ctx, token: string): Promise<{ link: ShareLinkRow; set: SetRow }> {
  const link = await findByToken(ctx, token);
  if (!link) throw linkNotFound();
  const set = link.setDeletedAt === null ? await findSet(ctx, link.teamId, link.setId) : undefined;
  if (!set) throw setNotFound();
  return { link, set };
}

/** The link's visitor as an actor: the same todo services as a member's, with the link's capabilities. */
const visitOf = (link: ShareLinkRow, set: SetRow): SharedVisit => ({
  link,
  set,
  actor: { kind: "share_link", teamId: link.teamId, userId: SHARED_USER_ID, setId: set.id, linkId: link.id, capabilities: capabilitiesOf(link) },
});

/** The link as its images see it: neither its flags nor its allow-list apply (spec 2 section 4.4). */
export async function viewLink(ctx: Ctx, token: string): Promise<SharedVisit> {
  const { link, set } = await resolveLink(ctx, token);
  return visitOf(link, set);
}

/**
 * A link opened by a visitor: the allow-list (when set) must name their email, passed as a query
 * parameter or body field (spec 2 section 4.4), with the grant of a mailed code when the link
 * requires one (issue 44). GET adds `requiresEmail: true` (and `requiresEmailCode`) to the refusal.
 */
export async function visitLink(ctx: Ctx, token: string, visitor: { email?: string; grant?: string }, { onRead = false } = {}): Promise<SharedVisit> {
  const { link, set } = await resolveLink(ctx, token);
  if (!visitorAdmitted(ctx, link, visitor.email, visitor.grant)) throw accessDenied(onRead, needsEmailCode(link));
  return visitOf(link, set);
}

/** GET /api/shared/:token as the bytes of its JSON: the whole set, or with `limit`/`cursor` a page (issue 43). */
export async function readShared(ctx: Ctx, { link, set, actor }: SharedVisit, query: ListQuery = {}): Promise<Uint8Array<ArrayBuffer>> {
  const request = parseListQuery(query);
  const { capabilities } = actor;
  // The zone its todos' due dates are read in (the set's, else the team's), for "overdue" and "today".
  const timezone = effectiveTimezone(set.timezone, (await readTeamSettings(ctx, link.teamId)).default_timezone);
  const head = {
    set: { id: set.id, name: set.name, timezone },
    permissions: capabilities,
    requiresEmail: link.allowedEmails !== "",
    requiresEmailCode: needsEmailCode(link),
  };
  const others = JSON.stringify(head).slice(1, -1);
  // A link without canView still says what it allows (a drop box: add only), but shows no todos.
  if (!capabilities.canView) return new TextEncoder().encode(`{${others},${noTodosPart(request)}}`);
  return listAnswer(ctx, set, request, others);
}

// A link's flags are known before anything is looked up, so a write the link never allows is
// refused first (spec 2 section 4.4's table); the service then applies the same rule per todo.
function assertAllows(actor: ShareLinkActor, capability: ShareCapability, refusal: TodoRefusal): void {
  if (!actor.capabilities[capability]) throw refused(actor, refusal);
}

export function createShared(ctx: Ctx, actor: ShareLinkActor, body: { title?: string; parentId?: string | null; email?: string }) {
  assertAllows(actor, "canCreate", "create_todos");
  return createTodo(ctx, actor, actor.setId, body);
}

export function patchShared(ctx: Ctx, actor: ShareLinkActor, todoId: string, body: TodoPatch & { email?: string }) {
  return patchTodo(ctx, actor, todoId, body);
}

export function deleteShared(ctx: Ctx, actor: ShareLinkActor, todoId: string) {
  assertAllows(actor, "canDelete", "delete");
  return deleteTodo(ctx, actor, todoId);
}

export function reorderShared(ctx: Ctx, actor: ShareLinkActor, body: { items?: { id: string; sortOrder: number }[]; email?: string }) {
  assertAllows(actor, "canReorder", "reorder");
  return reorderTodos(ctx, actor, { items: body.items, setId: actor.setId });
}
