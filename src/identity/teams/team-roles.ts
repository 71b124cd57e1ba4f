import { TEAM_ROLES, type TeamRole } from "../../contract/team-roles.ts";

export type { TeamRole };

/** owner > co-owner > admin > member; no role ranks below every role. */
const RANK: Record<TeamRole, number> = { owner: 4, "co-owner": 3, admin: 2, member: 1 };

export function rankOf(role: TeamRole | null): number {
  return role === null ? 0 : RANK[role];
}

export function isTeamRole(value: string): value is TeamRole {
  return (TEAM_ROLES as readonly string[]).includes(value);
}

/** True when `role` is `min` or ranks above it. */
export function isAtLeast(role: TeamRole | null, min: TeamRole): boolean {
  return rankOf(role) >= RANK[min];
}

/** The highest of several roles (direct and inherited), or null when there are none. */
export function pickHighestRole(roles: Iterable<TeamRole | null>): TeamRole | null {
  let best: TeamRole | null = null;
  for (const role of roles) if (rankOf(role) > rankOf(best)) best = role;
  return best;
}
