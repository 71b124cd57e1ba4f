import { and, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { type WsTeam, wsSessions } from "../storage/session.table.ts";
import { sameRoles } from "./session-check.ts";

/**
 * The identity provider of this instance changed the user's teams (a member added, removed or
 * given another role, a team moved or deleted): their live workspace sessions take the new list
 * at once, as the once-a-minute confirmation would (session-check.ts), and their realtime streams
 * follow it. Runs inside the change's transaction.
 */
export async function followIdpTeams(ctx: Pick<AppContext, "db" | "clock" | "workspace">, userId: string, teams: Omit<WsTeam, "groups">[]): Promise<void> {
  const live = and(eq(wsSessions.userId, userId), isNull(wsSessions.revokedAt), gt(wsSessions.expiresAt, ctx.clock.now()));
  const changed: string[] = [];
  for (const session of await ctx.db.select({ id: wsSessions.id, teams: wsSessions.teams }).from(wsSessions).where(live).all()) {
    // Groups come only with the ID token: kept for the teams the user is still in.
    const groups = new Map(session.teams.map((t) => [t.id, t.groups]));
    const next = teams.map((t) => ({ ...t, groups: groups.get(t.id) ?? [] }));
    if (sameRoles(session.teams, next)) continue;
    await ctx.db.update(wsSessions).set({ teams: next }).where(eq(wsSessions.id, session.id)).run();
    changed.push(session.id);
  }
  ctx.workspace.realtime.rightsChanged({ sessions: changed });
}
