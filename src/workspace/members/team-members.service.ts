import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { getAppConfig } from "../../settings/init/init.service.ts";
import { idpAccessToken } from "../session/idp-tokens.ts";
import { type WsTeam, wsSessions } from "../storage/session.table.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { memberCache } from "../storage/todos.table.ts";
import { fetchTeamMembers, type IdpMember, type TeamAnswer } from "../session/idp-team-api.ts";

export type MembersCtx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "outbound" | "log" | "bus" | "workspace">;

/** How long the IdP's answer stands in for the IdP: a hot path does not ask it each time. */
export const MEMBERS_FRESH_MS = 5 * 60_000;
/** After a failure, the cache answers alone for a while rather than waiting on a sick IdP each call. */
const RETRY_MS = 30_000;

/**
 * Where a team's member sync stands (ctx.workspace.memberSyncs, per team). Lost on restart: then
 * the first call asks the IdP again, which is all a restart costs.
 */
export type TeamSync = { syncedAt: number; failedAt: number; running: Promise<void> | null };

function syncOf(ctx: Pick<MembersCtx, "workspace">, teamId: string): TeamSync {
  const teams = ctx.workspace.memberSyncs;
  let sync = teams.get(teamId);
  if (!sync) teams.set(teamId, (sync = { syncedAt: -Infinity, failedAt: -Infinity, running: null }));
  return sync;
}

/**
 * Brings `workspace_member_cache` for the caller's team up to date from the IdP's team API
 * (ARCHITECTURE section 4, "Workspace sign-in"), at most once per freshness window; concurrent
 * callers share one request. Never throws: when the IdP cannot answer, the cache stands.
 */
export async function syncTeamMembers(ctx: MembersCtx, caller: MemberActor): Promise<void> {
  if (caller.teamId.startsWith("personal:")) return;
  const sync = syncOf(ctx, caller.teamId);
  const now = ctx.clock.now();
  if (now - sync.syncedAt < MEMBERS_FRESH_MS || now - sync.failedAt < RETRY_MS) return;
  sync.running ??= pull(ctx, caller, sync).finally(() => {
    sync.running = null;
  });
  await sync.running;
}

async function pull(ctx: MembersCtx, caller: MemberActor, sync: TeamSync): Promise<void> {
  try {
    const base = (await getAppConfig(ctx)).idp_base_url;
    const token = base ? await idpAccessToken(ctx, caller.session.id) : null;
    // A session from before tokens were kept, or whose grant ended: the cache answers until its next sign-in.
    if (!token) {
      // Not a failure of the IdP, but asked again only after the retry pause: this runs on every request.
      sync.failedAt = ctx.clock.now();
      return ctx.log.debug("workspace members: the caller has no usable IdP token; answering from the cache", { team_id: caller.teamId });
    }
    let answer: TeamAnswer = await fetchTeamMembers(ctx, base, caller.teamId, token);
    if (answer.kind === "unauthorized") {
      const renewed = await idpAccessToken(ctx, caller.session.id, { renew: true });
      answer = renewed ? await fetchTeamMembers(ctx, base, caller.teamId, renewed) : { kind: "failed", detail: "the IdP refused the access token" };
    }
    if (answer.kind !== "ok") throw new Error(answer.kind === "failed" ? answer.detail : "the IdP refused the renewed access token");
    await replaceCachedMembers(ctx, caller.teamId, answer.value);
    await applyMembership(ctx, caller.teamId, answer.value);
    sync.syncedAt = ctx.clock.now();
  } catch (e) {
    sync.failedAt = ctx.clock.now();
    ctx.log.warn("workspace members: the identity provider's team API failed; answering from the cache", {
      team_id: caller.teamId,
      error: (e as Error).message,
    });
  }
}

/** Makes the team's cached rows the IdP's list: new members added, names updated, leavers removed. */
async function replaceCachedMembers(ctx: Pick<MembersCtx, "db" | "clock">, teamId: string, members: IdpMember[]): Promise<void> {
  const known = new Map((await ctx.db.select().from(memberCache).where(eq(memberCache.teamId, teamId)).all()).map((row) => [row.userId, row]));
  const current = new Set(members.map((m) => m.userId));
  const gone = [...known.keys()].filter((id) => !current.has(id));
  const changed = members.filter((m) => {
    const row = known.get(m.userId);
    return !row || row.username !== m.username || row.name !== m.name;
  });
  // Reads stay reads: a write (and its fsync) only when the IdP's answer differs from the cache.
  if (gone.length === 0 && changed.length === 0) return;
  const now = ctx.clock.now();
  await withTeamTx(ctx.db, teamId, async () => {
    if (gone.length > 0)
      await ctx.db
        .delete(memberCache)
        .where(and(eq(memberCache.teamId, teamId), inArray(memberCache.userId, gone)))
        .run();
    for (const m of changed) {
      // The team API has no pictures: an avatar learned from the member's own sign-in stays.
      const names = { username: m.username, name: m.name, updatedAt: now };
      await ctx.db
        .insert(memberCache)
        .values({ teamId, userId: m.userId, avatarUrl: null, ...names })
        .onConflictDoUpdate({ target: [memberCache.teamId, memberCache.userId], set: names })
        .run();
    }
  });
}

/**
 * Live workspace sessions follow the IdP's answer: a member removed from the team loses it, a
 * changed role applies (sessions otherwise keep the `teams` claim of their sign-in for 14 days).
 */
async function applyMembership(ctx: Pick<MembersCtx, "db" | "clock" | "workspace">, teamId: string, members: IdpMember[]): Promise<void> {
  const roles = new Map(members.map((m) => [m.userId, m.role]));
  const now = ctx.clock.now();
  const sessions = (
    await ctx.db
      .select({ id: wsSessions.id, userId: wsSessions.userId, teams: wsSessions.teams })
      .from(wsSessions)
      .where(and(isNull(wsSessions.revokedAt), gt(wsSessions.expiresAt, now)))
      .all()
  ).filter((s) => s.teams.some((t) => t.id === teamId));
  const changes: { id: string; teams: WsTeam[] }[] = [];
  for (const session of sessions) {
    const role = roles.get(session.userId);
    const teams =
      role === undefined ? session.teams.filter((t) => t.id !== teamId) : session.teams.map((t) => (t.id === teamId && role !== null ? { ...t, role } : t));
    if (JSON.stringify(teams) !== JSON.stringify(session.teams)) changes.push({ id: session.id, teams });
  }
  if (changes.length === 0) return;
  await withTx(ctx.db, async () => {
    for (const change of changes) await ctx.db.update(wsSessions).set({ teams: change.teams }).where(eq(wsSessions.id, change.id)).run();
    ctx.workspace.realtime.rightsChanged({ sessions: changes.map((c) => c.id) });
  });
}
