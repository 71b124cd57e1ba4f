import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { getAppConfig } from "../../settings/init/init.service.ts";
import { fetchMyTeams, type IdpAnswer, type IdpTeam } from "./idp-team-api.ts";
import { idpAccessToken } from "./idp-tokens.ts";
import { endWsSessions } from "./session.service.ts";
import { type WsSessionRow, wsSessions } from "../storage/session.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "outbound" | "log" | "workspace">;

/**
 * The bound on how stale a workspace session may be: the IdP confirms the account and its teams
 * at least this often (a request past it waits for the answer), so a member removed or demoted
 * at the IdP, or an account disabled there, loses the workspace within a minute.
 */
export const CONFIRM_EVERY_MS = 60_000;
/** When the IdP cannot be reached, the last answer stands and it is asked again after this. */
const RETRY_MS = 15_000;
/**
 * How old the answer may be when the person opens the workspace (`GET /api/workspace/me`, once
 * per page load) or names a team their session does not list: a team created, joined or left at
 * the IdP since shows then, not up to a minute later. Also how often one session can make the
 * workspace ask on demand.
 */
export const FRESH_ON_DEMAND_MS = 5_000;

/**
 * The session as the IdP sees it now: as stored while confirmed within CONFIRM_EVERY_MS, else
 * after asking the IdP for the user's teams with the session's own token. A grant the IdP no
 * longer honours (the account was disabled or recovered, the password changed, consent revoked),
 * or no longer belonging to the allowed team, ends the session: null.
 */
export function confirmedSession(ctx: Ctx, session: WsSessionRow, maxAgeMs = CONFIRM_EVERY_MS): WsSessionRow | Promise<WsSessionRow | null> {
  if (!needsConfirmation(ctx, session, maxAgeMs)) return session;
  // Concurrent requests of one session share one question to the IdP.
  const bySession = ctx.workspace.confirmations;
  let running = bySession.get(session.id);
  if (!running) {
    running = confirm(ctx, session).finally(() => bySession.delete(session.id));
    bySession.set(session.id, running);
  }
  return running;
}

export const needsConfirmation = (ctx: Pick<Ctx, "clock">, session: WsSessionRow, maxAgeMs = CONFIRM_EVERY_MS) =>
  ctx.clock.now() - session.validatedAt >= maxAgeMs;

/**
 * The session confirmed within FRESH_ON_DEMAND_MS, for the asks that need the IdP's latest word on
 * the person's teams; while the IdP is failing, within the usual bound (no ask per page load then).
 */
export function freshSession(ctx: Ctx, session: WsSessionRow): WsSessionRow | Promise<WsSessionRow | null> {
  const failing = ctx.clock.now() < (ctx.workspace.idp.unavailableUntil ?? 0);
  return confirmedSession(ctx, session, failing ? CONFIRM_EVERY_MS : FRESH_ON_DEMAND_MS);
}

async function confirm(ctx: Ctx, session: WsSessionRow): Promise<WsSessionRow | null> {
  let answer: IdpAnswer<IdpTeam[]>;
  try {
    answer = await askForTeams(ctx, session);
  } catch (e) {
    answer = { kind: "failed", detail: (e as Error).message };
  }
  if (answer.kind === "unauthorized") return end(ctx, session, "the identity provider no longer honours the session's grant");
  if (answer.kind === "failed") {
    ctx.log.warn("workspace session: the identity provider could not confirm it; the last answer stands", { error: answer.detail });
    const retryAt = { validatedAt: ctx.clock.now() - CONFIRM_EVERY_MS + RETRY_MS };
    ctx.workspace.idp.unavailableUntil = ctx.clock.now() + RETRY_MS;
    await ctx.db.update(wsSessions).set(retryAt).where(eq(wsSessions.id, session.id)).run();
    return { ...session, ...retryAt };
  }
  const allowed = (await getAppConfig(ctx)).allowed_team_id;
  if (allowed && !answer.value.some((t) => t.id === allowed)) return end(ctx, session, "no longer a member of the allowed team");
  // Groups come only with the ID token: kept for the teams the user is still in.
  const groups = new Map(session.teams.map((t) => [t.id, t.groups]));
  const confirmed = { teams: answer.value.map((t) => ({ ...t, groups: groups.get(t.id) ?? [] })), validatedAt: ctx.clock.now() };
  await ctx.db.update(wsSessions).set(confirmed).where(eq(wsSessions.id, session.id)).run();
  if (!sameRoles(session.teams, confirmed.teams)) ctx.workspace.realtime.rightsChanged({ sessions: [session.id] });
  return { ...session, ...confirmed };
}

/** Whether two lists of teams give the same role in the same teams: else the realtime streams follow. */
export const sameRoles = (a: WsSessionRow["teams"], b: WsSessionRow["teams"]) => {
  const roles = (teams: WsSessionRow["teams"]) => JSON.stringify(teams.map((t) => [t.id, t.role]).sort());
  return roles(a) === roles(b);
};

/** The user's teams at the IdP, renewing the access token once if the IdP refuses it. */
async function askForTeams(ctx: Ctx, session: WsSessionRow): Promise<IdpAnswer<IdpTeam[]>> {
  const base = (await getAppConfig(ctx)).idp_base_url;
  const token = await idpAccessToken(ctx, session.id);
  if (!token) return { kind: "unauthorized" };
  const answer = await fetchMyTeams(ctx, base, token);
  if (answer.kind !== "unauthorized") return answer;
  const renewed = await idpAccessToken(ctx, session.id, { renew: true });
  return renewed ? fetchMyTeams(ctx, base, renewed) : answer;
}

async function end(ctx: Ctx, session: WsSessionRow, reason: string): Promise<null> {
  await endWsSessions(ctx, eq(wsSessions.id, session.id));
  ctx.log.info("workspace session ended", { reason });
  return null;
}
