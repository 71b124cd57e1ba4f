import type { ShareCapabilities, WorkspaceRole } from "../../contract/workspace.ts";
import type { WsSessionRow } from "../storage/session.table.ts";

/** A signed-in member of the team (or the owner of their personal space), with their role there. */
export type MemberActor = { kind: "member"; teamId: string; userId: string; role: WorkspaceRole; session: WsSessionRow };

/** Spec 2 section 2.2: what a share link writes is recorded as made by `shared`. */
export const SHARED_USER_ID = "shared";

/** A share link's visitor: the link's capabilities, in the link's one set. */
export type ShareLinkActor = {
  kind: "share_link";
  teamId: string;
  userId: typeof SHARED_USER_ID;
  setId: string;
  linkId: string;
  capabilities: ShareCapabilities;
};

/**
 * Who acts in a workspace. A share link is just another kind of caller (Vikunja's link share):
 * every write takes an actor, and the `can*` policies decide for both kinds alike.
 */
export type WorkspaceActor = MemberActor | ShareLinkActor;

/**
 * A signed-in user on what is theirs alone (their settings), in no team. Not an actor: it holds
 * no role anywhere, so no `can*` policy accepts it and no team-scoped service can be handed one.
 */
export type SessionCaller = { kind: "session"; userId: string; session: WsSessionRow };

/** Every caller a workspace route resolves: an actor in a team, or a session outside any. */
export type WorkspaceCaller = WorkspaceActor | SessionCaller;

/** Whether the actor made the item. A link owns nothing, whatever other visitors wrote through it. */
export const owns = (actor: WorkspaceActor, ownerId: string | null): boolean => actor.kind === "member" && ownerId === actor.userId;

/** Whether the set is within the actor's reach: every set of the team for a member, its own for a link. */
export const reaches = (actor: WorkspaceActor, setId: string): boolean => actor.kind === "member" || actor.setId === setId;

/**
 * The caller's role in a workspace: from the teams the IdP named at sign-in, or owner of their
 * own `personal:<userId>` space. Null when they are not a member.
 */
export function roleIn(session: WsSessionRow, teamId: string): WorkspaceRole | null {
  if (teamId.startsWith("personal:")) return teamId === `personal:${session.userId}` ? "owner" : null;
  const role = session.teams.find((t) => t.id === teamId)?.role;
  return role === "owner" || role === "co-owner" || role === "admin" || role === "member" ? role : null;
}

/** The member actor for a session in a team, or null when they are not a member there. */
export function memberIn(session: WsSessionRow, teamId: string): MemberActor | null {
  const role = roleIn(session, teamId);
  return role ? { kind: "member", session, userId: session.userId, teamId, role } : null;
}
