import type { AppContext } from "../../context/context.ts";
import { missing } from "../users/identity.errors.ts";
import { pickHighestRole, type TeamRole } from "./team-roles.ts";
import { canViewTeam } from "./teams.policy.ts";
import { selectChainRoles } from "./teams.repo.ts";

type Ctx = Pick<AppContext, "db">;

/**
 * The user's effective role on a team: the highest of their direct role and the role they hold
 * in every ancestor team (roles inherit down). Null when they have none, or the team is gone.
 */
export function effectiveTeamRole(ctx: Ctx, userId: string, teamId: string): TeamRole | null {
  return pickHighestRole(selectChainRoles(ctx, userId, teamId).map((r) => r.role));
}

/** True when the user's effective role is `owner` on any of the teams (the app-config check). */
export function ownsAnyTeam(ctx: Ctx, userId: string, teamIds: string[]): boolean {
  return teamIds.some((teamId) => effectiveTeamRole(ctx, userId, teamId) === "owner");
}

/**
 * The caller's effective role on a team they can see. A team they have no role on answers the
 * same 404 as a missing one, so team ids cannot be probed.
 */
export function requireVisibleTeam(ctx: Ctx, userId: string, teamId: string): TeamRole {
  const role = effectiveTeamRole(ctx, userId, teamId);
  if (role === null || !canViewTeam(role)) throw missing("Team");
  return role;
}
