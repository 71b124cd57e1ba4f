import { desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { isMailAddress } from "../../contract/mail.ts";
import { type MemberActor, memberIn, SHARED_USER_ID } from "../permissions/actor.ts";
import { canViewSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { readUserSettings } from "../settings/user-settings.service.ts";
import { type WsSessionRow, wsSessions } from "../storage/session.table.ts";
import { NOTICE_SETTINGS, type NoticeKind } from "./notice-kinds.ts";

export type RecipientCtx = Pick<AppContext, "db" | "clock" | "workspace">;

/** Who a notice goes to: a verified address, and the person as a member of the team it is about. */
export type NoticeRecipient = { userId: string; email: string; name: string | null; actor: MemberActor };

/**
 * The person as the IdP last described them to the workspace (ARCHITECTURE section 4: the
 * workspace is a relying party and learns addresses only from the IdP): their most recent
 * workspace session, live or ended, with the address, its `email_verified` and their teams.
 * Ended sessions are kept 30 days, so notices pause some six weeks after a last sign-in.
 */
export function latestSession(ctx: Pick<AppContext, "db">, userId: string): Promise<WsSessionRow | undefined> {
  return ctx.db.select().from(wsSessions).where(eq(wsSessions.userId, userId)).orderBy(desc(wsSessions.createdAt)).limit(1).get();
}

/** The address mail goes to, or null when there is none the IdP vouches for. */
export const verifiedAddress = (session: WsSessionRow | undefined): string | null =>
  session?.emailVerified && isMailAddress(session.email) ? session.email : null;

/** Whether the person turned this kind of notice on (every kind is off until they do). */
export const wantsNotice = async (ctx: Pick<AppContext, "db" | "workspace">, userId: string, kind: NoticeKind): Promise<boolean> =>
  (await readUserSettings(ctx, userId))[NOTICE_SETTINGS[kind]] === true;

/**
 * The person as a member of `teamId`, from their latest session, or null when they are not one
 * now: the team must be among the session's (the IdP's word on roles) and the person still in the
 * team's member list (which a leave, a removal or a disabled account empties).
 */
export async function memberNow(ctx: RecipientCtx, session: WsSessionRow, teamId: string): Promise<MemberActor | null> {
  const actor = memberIn(session, teamId);
  return actor && (await ctx.workspace.memberCache.find(teamId, session.userId)) ? actor : null;
}

/**
 * Whether `userId` gets a notice of `kind` about a todo of `setId`: they turned it on, the IdP
 * vouched for their address, they are still a member and may view the set (a notice must not
 * show a title its reader could not open). Null means no mail.
 */
export async function noticeRecipient(ctx: RecipientCtx, userId: string, kind: NoticeKind, teamId: string, setId: string): Promise<NoticeRecipient | null> {
  if (userId === SHARED_USER_ID || !(await wantsNotice(ctx, userId, kind))) return null;
  const session = await latestSession(ctx, userId);
  const email = verifiedAddress(session);
  if (!session || !email) return null;
  const actor = await memberNow(ctx, session, teamId);
  if (!actor || !canViewSet(actor, await permissionsOf(ctx, actor, setId))) return null;
  return { userId, email, name: session.name || session.username || null, actor };
}
