import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { DueSoonTodo } from "../../contract/api/workspace.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { userSettings } from "../../settings/team-settings/team-and-user-settings.table.ts";
import { readTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { effectiveTimezone, localDateTime } from "../renew/renew.schedule.ts";
import type { WsSessionRow } from "../storage/session.table.ts";
import { dueDigestsSent } from "../storage/notices.table.ts";
import { dueSoon } from "../todos/due-soon.service.ts";
import { readUserSettings } from "../settings/user-settings.service.ts";
import { enqueueNotice } from "../notices/notice-mail.ts";
import { latestSession, memberNow, verifiedAddress } from "../notices/recipients.ts";
import { type DigestSection, digestContent } from "./due-digest-content.ts";
import type { TodoNoticeCtx } from "../notices/todo-notices.ts";

type Ctx = TodoNoticeCtx & Pick<AppContext, "clock">;

/** The wall-clock time of the person's morning at which their digest is due (their zone). */
export const DIGEST_TIME = "07:00";

/** What a run did for one person: for the job's log and for tests. */
export type DigestOutcome = "sent" | "nothing_due" | "not_yet" | "already_done" | "no_address";

/** The people who turned the digest on (a JSON `true` in their settings, a text column). */
async function subscribers(ctx: Pick<AppContext, "db">): Promise<string[]> {
  const turnedOn =
    ctx.db.$dialect === "postgres"
      ? sql`(${userSettings.settings})::jsonb -> 'notify_due_digest' = 'true'::jsonb`
      : sql`json_extract(${userSettings.settings}, '$.notify_due_digest') = 1`;
  const rows = await ctx.db.select({ userId: userSettings.userId }).from(userSettings).where(turnedOn).all();
  return rows.map((row) => row.userId);
}

/** The workspaces the person is a member of now: their teams as the IdP last named them, and their personal space. */
async function workspacesOf(ctx: Ctx, session: WsSessionRow): Promise<{ actor: MemberActor; name: string }[]> {
  const spaces = [...session.teams.map((t) => ({ id: t.id, name: t.name })), { id: `personal:${session.userId}`, name: "Personal" }];
  const found: { actor: MemberActor; name: string }[] = [];
  for (const { id, name } of spaces) {
    const actor = await memberNow(ctx, session, id);
    if (actor) found.push({ actor, name });
  }
  return found;
}

const isDone = async (ctx: Pick<AppContext, "db">, userId: string, localDate: string) =>
  (await ctx.db
    .select({ userId: dueDigestsSent.userId })
    .from(dueDigestsSent)
    .where(and(eq(dueDigestsSent.userId, userId), eq(dueDigestsSent.localDate, localDate)))
    .get()) !== undefined;

/** The open todos due today (in their set's zone) or overdue, from the sets the person may view. */
async function dueToday(ctx: Ctx, actor: MemberActor, nowMs: number): Promise<DueSoonTodo[]> {
  return (await dueSoon(ctx, actor)).todos.filter((todo) => todo.overdue || todo.dueDate === localDateTime(nowMs, todo.timezone).date);
}

/**
 * Issue 44: one person's daily digest of what is due or overdue in their sets, once their local
 * time (their own zone, else their first team's) has reached DIGEST_TIME. The day's row and the
 * mail are written in one transaction and the row's key decides, so however many runs, restarts
 * or processes, one local date gets one digest; a day with nothing due gets none.
 */
export async function sendDueDigest(ctx: Ctx, userId: string): Promise<DigestOutcome> {
  const session = await latestSession(ctx, userId);
  const email = verifiedAddress(session);
  if (!session || !email) return "no_address";
  const spaces = await workspacesOf(ctx, session);
  const teamZone = spaces[0] ? (await readTeamSettings(ctx, spaces[0].actor.teamId)).default_timezone : null;
  const zone = effectiveTimezone((await readUserSettings(ctx, userId)).timezone as string | undefined, teamZone);
  const nowMs = ctx.clock.now();
  const local = localDateTime(nowMs, zone);
  if (local.time < DIGEST_TIME) return "not_yet";
  if (await isDone(ctx, userId, local.date)) return "already_done";
  const sections: DigestSection[] = [];
  for (const { actor, name } of spaces) {
    const todos = await dueToday(ctx, actor, nowMs);
    if (todos.length > 0) sections.push({ teamId: actor.teamId, teamName: name, todos });
  }
  const count = sections.reduce((n, s) => n + s.todos.length, 0);
  return withTx(ctx.db, async () => {
    const row = { userId, localDate: local.date, todoCount: count, sentAt: nowMs };
    if (changedRows(await ctx.db.insert(dueDigestsSent).values(row).onConflictDoNothing().run()) !== 1) return "already_done";
    if (count === 0) return "nothing_due";
    await enqueueNotice(ctx, { userId, email, name: session.name || session.username || null }, "due_digest", digestContent(ctx, sections, local.date));
    return "sent";
  });
}

/** The job (every 15 minutes, so a zone's morning is met within a quarter of an hour): every subscriber in turn. */
export async function sendDueDigests(ctx: Ctx): Promise<Record<string, DigestOutcome>> {
  const outcomes: Record<string, DigestOutcome> = {};
  for (const userId of await subscribers(ctx)) {
    try {
      outcomes[userId] = await sendDueDigest(ctx, userId);
    } catch (e) {
      // One person's failure (a corrupt row) does not hold back everyone else's morning.
      ctx.log.error("due digest failed", { user_id: userId, error: (e as Error).message });
    }
  }
  return outcomes;
}
