import { type Static, Type } from "@sinclair/typebox";
import { TEAM_ROLES } from "../team-roles.ts";
import { oneOf, orNull } from "./common.ts";

/**
 * Teams as the IdP owns them: the caller's (`/api/oauth/me/teams`), one bound team
 * (`/api/oauth/me/team/:teamId`) and every team, for the site API (`/api/oauth/site/teams`).
 */

export const TeamRole = oneOf(TEAM_ROLES);
export type TeamRole = Static<typeof TeamRole>;

export const Team = Type.Object({ id: Type.String(), name: Type.String(), parent_id: orNull(Type.String()) });
export type Team = Static<typeof Team>;
/** A team created (`POST /api/oauth/me/teams`, 201) or changed (`PATCH`). */
export const TeamAnswer = Type.Object({ team: Team });
export type TeamAnswer = Static<typeof TeamAnswer>;

/** A team in a list, with the caller's roles on it: null where they hold none (the site API lists every team). */
export const TeamSummary = Type.Object({
  ...Team.properties,
  /** The effective role: the highest of the direct one and those inherited from ancestor teams. */
  role: orNull(TeamRole),
  direct_role: orNull(TeamRole),
});
export type TeamSummary = Static<typeof TeamSummary>;
/** `GET /api/oauth/me/teams`: every team the caller has a role on. */
export const TeamList = Type.Object({ teams: Type.Array(TeamSummary) });
export type TeamList = Static<typeof TeamList>;
/** `GET /api/oauth/site/teams`: a page of every team, and how many match. */
export const TeamPage = Type.Object({ teams: Type.Array(TeamSummary), total: Type.Number() });
export type TeamPage = Static<typeof TeamPage>;

/** One row per user: direct members and those with a role inherited from an ancestor team. */
export const TeamMember = Type.Object({
  user_id: Type.String(),
  username: Type.String(),
  name: Type.String(),
  /** The effective role. */
  role: TeamRole,
  /** The role held in this team itself, or null for a member only through an ancestor. */
  direct_role: orNull(TeamRole),
  /** The ancestor team the effective role comes from; null when it is the direct role. */
  inherited_from: orNull(Type.String()),
  /** Present only for an account an administrator disabled: it holds the role but cannot sign in. */
  disabled: Type.Optional(Type.Literal(true)),
});
export type TeamMember = Static<typeof TeamMember>;
export const TeamMemberList = Type.Object({ members: Type.Array(TeamMember) });
export type TeamMemberList = Static<typeof TeamMemberList>;

/** A member as added or changed: their direct role. */
export const MemberAnswer = Type.Object({ member: Type.Object({ user_id: Type.String(), username: Type.String(), role: TeamRole }) });
export type MemberAnswer = Static<typeof MemberAnswer>;

/** `GET /api/oauth/me/team/:teamId/members/:userId/profile`: what `profile` releases, never the email. */
export const MemberProfile = Type.Object({
  profile: Type.Object({ user_id: Type.String(), username: Type.String(), name: Type.String(), picture: Type.String() }),
});
export type MemberProfile = Static<typeof MemberProfile>;

/** A group: its slug is its identity in tokens; `members` are user ids. */
export const TeamGroup = Type.Object({ slug: Type.String(), name: Type.String(), members: Type.Array(Type.String()) });
export type TeamGroup = Static<typeof TeamGroup>;
export const GroupAnswer = Type.Object({ group: TeamGroup });
export type GroupAnswer = Static<typeof GroupAnswer>;

/** A team with the caller's effective role: null only for a site administrator who holds none. */
export const TeamWithRole = Type.Object({ ...Team.properties, role: orNull(TeamRole) });
export type TeamWithRole = Static<typeof TeamWithRole>;
/** `GET /api/oauth/me/team/:teamId`. */
export const TeamWithRoleAnswer = Type.Object({ team: TeamWithRole });
export type TeamWithRoleAnswer = Static<typeof TeamWithRoleAnswer>;

/** `GET /api/oauth/me/teams/:teamId`, `GET /api/oauth/site/teams/:teamId`. */
export const TeamDetail = Type.Object({ team: TeamWithRole, members: Type.Array(TeamMember), groups: Type.Array(TeamGroup) });
export type TeamDetail = Static<typeof TeamDetail>;
