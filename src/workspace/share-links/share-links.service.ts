import { cleanLine } from "../../shared/text.ts";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { forbidden, invalidRequest } from "../../shared/errors.ts";
import type { Permissions } from "../permissions/permissions.ts";
import { canManageLinks, canViewSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { findSetOrThrow } from "../storage/sets.repo.ts";
import { todoSets } from "../storage/sets.table.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { SHARE_CAPABILITIES as CAPABILITIES, type ShareCapability as Capability } from "../../contract/workspace.ts";
import { findTeamLink, linkJson, newToken, normaliseEmails, sealToken, type ShareLinkRow } from "../storage/share-links.repo.ts";
import { mailEnabled } from "../../mail/outbox.service.ts";
import { emailCodesNeedAllowList, emailCodesNeedMail } from "./email-code.errors.ts";
import { shareLinks } from "../storage/share-links.table.ts";
import { linkNotFound, noPermissionToManageLinks, noUpdates } from "../storage/workspace.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets" | "workspace"> & Parameters<typeof mailEnabled>[0];
export type LinkInput = Partial<Record<Capability, boolean>> & { name?: string; allowedEmails?: string; requireEmailCode?: boolean };

const EMAIL = /^[^\s@,]+@[^\s@,]+$/;

/** The fields given, checked: names trimmed, every allow-list entry an address. */
function cleanInput(body: LinkInput): Partial<typeof shareLinks.$inferInsert> {
  const out: Partial<typeof shareLinks.$inferInsert> = {};
  if (body.name !== undefined) out.name = cleanLine(body.name);
  for (const key of CAPABILITIES) if (body[key] !== undefined) out[key] = body[key];
  if (body.allowedEmails !== undefined) {
    const emails = normaliseEmails(body.allowedEmails);
    if (emails !== "" && !emails.split(",").every((e) => EMAIL.test(e))) throw invalidRequest("allowedEmails must be comma-separated email addresses");
    out.allowedEmails = emails;
  }
  if (body.requireEmailCode !== undefined) out.requireEmailCode = body.requireEmailCode;
  return out;
}

/**
 * Issue 44: a code is checked against the allow-list, and mailed: the option needs both. Only
 * turning it on needs mail, so a link whose mail went away can still be edited (or turned off).
 */
function assertEmailCodesPossible(ctx: Ctx, fields: Partial<typeof shareLinks.$inferInsert>, before?: ShareLinkRow): void {
  const requireEmailCode = fields.requireEmailCode ?? before?.requireEmailCode ?? false;
  if (!requireEmailCode) return;
  if ((fields.allowedEmails ?? before?.allowedEmails ?? "") === "") throw emailCodesNeedAllowList();
  if (fields.requireEmailCode === true && !before?.requireEmailCode && !mailEnabled(ctx)) throw emailCodesNeedMail();
}

async function assertMayManage(ctx: Ctx, caller: MemberActor, setId: string): Promise<void> {
  if (!canManageLinks(caller, await permissionsOf(ctx, caller, setId))) throw noPermissionToManageLinks();
}

/** Spec 2 section 4.3: a set's links (members). */
export async function listSetLinks(ctx: Ctx, caller: MemberActor, setId: string) {
  await findSetOrThrow(ctx, caller.teamId, setId);
  const perms = await permissionsOf(ctx, caller, setId);
  if (!canViewSet(caller, perms)) throw forbidden("view_todos revoked for this set");
  const rows = await ctx.db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.teamId, caller.teamId), eq(shareLinks.setId, setId), isNull(shareLinks.setDeletedAt)))
    .orderBy(asc(shareLinks.createdAt), asc(shareLinks.id))
    .all();
  return { links: rows.map((row) => linkJson(ctx, row, { withToken: canManageLinks(caller, perms) })) };
}

/** Spec 2 section 4.3: every link of the team, with its set's name; sets the caller may not view are left out. */
export async function listTeamLinks(ctx: Ctx, caller: MemberActor) {
  const rows = await ctx.db
    .select({ link: shareLinks, setName: todoSets.name })
    .from(shareLinks)
    .innerJoin(todoSets, eq(todoSets.id, shareLinks.setId))
    .where(and(eq(shareLinks.teamId, caller.teamId), eq(todoSets.teamId, caller.teamId), isNull(shareLinks.setDeletedAt)))
    .orderBy(asc(todoSets.sortOrder), asc(shareLinks.createdAt), asc(shareLinks.id))
    .all();
  const bySet = new Map<string, Permissions>();
  for (const { link } of rows) if (!bySet.has(link.setId)) bySet.set(link.setId, await permissionsOf(ctx, caller, link.setId));
  const permsOf = (setId: string) => bySet.get(setId) as Permissions;
  return {
    links: rows
      .filter((r) => canViewSet(caller, permsOf(r.link.setId)))
      .map((r) => linkJson(ctx, r.link, { setName: r.setName, withToken: canManageLinks(caller, permsOf(r.link.setId)) })),
  };
}

/** Spec 2 section 4.3 create (manage_set_links): canView on, the rest off unless given. */
export async function createLink(ctx: Ctx, caller: MemberActor, setId: string, body: LinkInput) {
  await findSetOrThrow(ctx, caller.teamId, setId);
  await assertMayManage(ctx, caller, setId);
  const fields = cleanInput(body);
  assertEmailCodesPossible(ctx, fields);
  const { token, tokenHash } = newToken();
  const row = await ctx.db
    .insert(shareLinks)
    .values({
      id: crypto.randomUUID(),
      teamId: caller.teamId,
      setId,
      tokenHash,
      tokenSealed: sealToken(ctx, token),
      createdBy: caller.userId,
      createdAt: ctx.clock.now(),
      ...fields,
    })
    .returning()
    .get();
  return { link: linkJson(ctx, row) };
}

/** Spec 2 section 4.3 patch: only the fields given change; none is `No updates`. */
export async function updateLink(ctx: Ctx, caller: MemberActor, linkId: string, body: LinkInput) {
  const link = await findTeamLink(ctx, caller.teamId, linkId);
  if (!link) throw linkNotFound();
  await assertMayManage(ctx, caller, link.setId);
  const fields = cleanInput(body);
  if (Object.keys(fields).length === 0) throw noUpdates();
  assertEmailCodesPossible(ctx, fields, link);
  await ctx.db.update(shareLinks).set(fields).where(eq(shareLinks.id, link.id)).run();
  ctx.workspace.svgImages.forgetLink(link.id);
  ctx.workspace.realtime.rightsChanged({ links: [link.id] });
  return { ok: true as const };
}

/** Spec 2 section 3: the set stays; the token stops working at once (its cached images too). */
export async function deleteLink(ctx: Ctx, caller: MemberActor, linkId: string) {
  const link = await findTeamLink(ctx, caller.teamId, linkId);
  if (!link) throw linkNotFound();
  await assertMayManage(ctx, caller, link.setId);
  await ctx.db.delete(shareLinks).where(eq(shareLinks.id, link.id)).run();
  ctx.workspace.svgImages.forgetLink(link.id);
  ctx.workspace.realtime.rightsChanged({ links: [link.id] });
  return { ok: true as const };
}
