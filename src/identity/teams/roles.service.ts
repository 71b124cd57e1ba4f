import type { AppContext } from "../../context/context.ts";
import { missing } from "../users/identity.errors.ts";
import { pickHighestRole, type TeamRole } from "./team-roles.ts";
import { canViewTeam, SITE_ACTOR_ROLE } from "./teams.policy.ts";
import { findTeam, selectChainRoles } from "./teams.repo.ts";

type Ctx = Pick<AppContext, "db">;

/**
 * Who acts on a team: a user by id, whose own effective roles decide, or a site administrator
 * acting through a site team scope (spec 1 section 2.3 rule 9: every team on the instance), with
 * SITE_ACTOR_ROLE on every team. Only the site routes make the latter, after their `admin`
 * check; the rules that guard the team itself (it keeps an owner) still apply.
 */
export type TeamActor = string | { siteAdminId: string };

/** The user behind an actor: who the audit log names. */
export const actorIdOf = (actor: TeamActor): string => (typeof actor === "string" ? actor : actor.siteAdminId);

/** What an audit entry of a site administrator's change adds, so a team's log shows it came from outside. */
export const siteMark = (actor: TeamActor): { via?: "site" } => (typeof actor === "string" ? {} : { via: "site" });

/**
 * The user's effective role on a team: the highest of their direct role and the role they hold
 * in every ancestor team (roles inherit down). Null when they have none, or the team is gone.
 */
export async function effectiveTeamRole(ctx: Ctx, userId: string, teamId: string): Promise<TeamRole | null> {
  return pickHighestRole((await selectChainRoles(ctx, userId, teamId)).map((r) => r.role));
}

/** True when the user's effective role is `owner` on any of the teams (the app-config check). */
export async function ownsAnyTeam(ctx: Ctx, userId: string, teamIds: string[]): Promise<boolean> {
  for (const teamId of teamIds) if ((await effectiveTeamRole(ctx, userId, teamId)) === "owner") return true;
  return false;
}

/**
 * The caller's effective role on a team they can see. A team they have no role on answers the
 * same 404 as a missing one, so team ids cannot be probed. A site administrator sees every team,
 * as its owner.
 */
export async function requireVisibleTeam(ctx: Ctx, actor: TeamActor, teamId: string): Promise<TeamRole> {
  if (typeof actor !== "string") {
    if (!(await findTeam(ctx, teamId))) throw missing("Team");
    return SITE_ACTOR_ROLE;
  }
  const role = await effectiveTeamRole(ctx, actor, teamId);
  if (role === null || !canViewTeam(role)) throw missing("Team");
  return role;
}
