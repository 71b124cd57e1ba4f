import { rankOf, type TeamRole } from "./team-roles.ts";
import type { selectChainMembers } from "./teams.repo.ts";

type ChainMember = ReturnType<typeof selectChainMembers>[number];

export type MemberView = {
  user_id: string;
  username: string;
  name: string;
  /** The effective role. */
  role: TeamRole;
  /** The role held in this team itself, or null for a member only through an ancestor. */
  direct_role: TeamRole | null;
  /** The ancestor team the effective role comes from; null when it is the direct role. */
  inherited_from: string | null;
  /** Present (true) only for an account an administrator disabled: it holds the role but cannot sign in. */
  disabled?: true;
};

/**
 * Folds a team's own and its ancestors' memberships into one row per user. Rows arrive nearest
 * team first, so on a tie the nearer team (the direct role when there is one) wins.
 */
export function foldMembers(rows: ChainMember[]): MemberView[] {
  const byUser = new Map<string, MemberView>();
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
