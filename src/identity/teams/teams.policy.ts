import { isAtLeast, rankOf, type TeamRole } from "./team-roles.ts";

/*
 * Who may do what to a team, as pure functions of effective roles (the highest of the caller's
 * direct role and every ancestor team's role; null when the caller has none). Services call
 * these; handlers never repeat them.
 */

/**
 * A site administrator acting through a site team scope (spec 1 section 2.3 rule 9) holds an
 * owner's rights on every team of the instance, whatever their own roles.
 */
export const SITE_ACTOR_ROLE: TeamRole = "owner";

/** Anyone with an effective role sees the team; for others it does not exist (404). */
export function canViewTeam(actor: TeamRole | null): boolean {
  return actor !== null;
}

/** Rename, re-parent or delete: owner or co-owner. */
export function canManageTeam(actor: TeamRole | null): boolean {
  return isAtLeast(actor, "co-owner");
}

/** Create a sub-team under, or move a team under, a parent: admin+ on that parent. */
export function canAttachSubTeam(actorOnParent: TeamRole | null): boolean {
  return isAtLeast(actorOnParent, "admin");
}

/** Add, change and remove members: admin+. */
export function canManageMembers(actor: TeamRole | null): boolean {
  return isAtLeast(actor, "admin");
}

/** The grant cap: nobody hands out a role above their own effective role. */
export function canGrantRole(actor: TeamRole | null, role: TeamRole): boolean {
  return canManageMembers(actor) && rankOf(role) <= rankOf(actor);
}

/** Change or remove another member: admin+, and never someone whose role ranks above one's own. */
export function canChangeMember(actor: TeamRole | null, target: TeamRole | null): boolean {
  return canManageMembers(actor) && rankOf(target) <= rankOf(actor);
}

/** Leaving is always one's own choice; removing someone else is a member change. */
export function canRemoveMember(actor: TeamRole | null, target: TeamRole | null, isSelf: boolean): boolean {
  return isSelf ? actor !== null : canChangeMember(actor, target);
}

/**
 * A team keeps at least one direct owner: the last one can neither leave nor be demoted.
 * `nextRole` is the role after the change, null for a removal.
 */
export function canVacateRole(current: TeamRole, nextRole: TeamRole | null, directOwners: number): boolean {
  return current !== "owner" || nextRole === "owner" || directOwners > 1;
}

/** Create, rename, fill and delete groups: admin+. */
export function canManageGroups(actor: TeamRole | null): boolean {
  return isAtLeast(actor, "admin");
}

/** Only direct or inherited members of the team may be put in one of its groups. */
export function canJoinGroup(candidate: TeamRole | null): boolean {
  return candidate !== null;
}

/** The audit log of a team: admin+. */
export function canReadAudit(actor: TeamRole | null): boolean {
  return isAtLeast(actor, "admin");
}

/**
 * RFC 9470 step-up: an app may delete a whole team only with a token from a sign-in that used a
 * second factor within the last 15 minutes (a session or PAT of the user is not affected).
 */
export const TEAM_DELETION = { acr: "mfa", maxAge: 900 } as const;
