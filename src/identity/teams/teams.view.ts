import type { TeamMember } from "../../contract/api/teams.ts";
import { rankOf } from "./team-roles.ts";
import type { selectChainMembers } from "./teams.repo.ts";

type ChainMember = Awaited<ReturnType<typeof selectChainMembers>>[number];

/**
 * Folds a team's own and its ancestors' memberships into one row per user. Rows arrive nearest
 * team first, so on a tie the nearer team (the direct role when there is one) wins.
 */
export function foldMembers(rows: ChainMember[]): TeamMember[] {
  const byUser = new Map<string, TeamMember>();
  for (const row of rows) {
    const seen = byUser.get(row.userId);
    const source = row.depth === 0 ? null : row.teamId;
    if (!seen) {
      byUser.set(row.userId, {
        user_id: row.userId,
        username: row.username,
        name: row.name,
        role: row.role,
        direct_role: row.depth === 0 ? row.role : null,
        inherited_from: source,
        ...(row.disabled ? { disabled: true as const } : {}),
      });
    } else if (rankOf(row.role) > rankOf(seen.role)) {
      seen.role = row.role;
      seen.inherited_from = source;
    }
  }
  return [...byUser.values()];
}
