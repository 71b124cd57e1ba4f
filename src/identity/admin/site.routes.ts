import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { Principal } from "../../access/principal.ts";
import type { AppContext } from "../../context/context.ts";
import { createGroup, deleteGroup, renameGroup, setGroupMembers } from "../teams/groups.service.ts";
import { addMember, changeMemberRole, removeMember } from "../teams/members.service.ts";
import type { TeamActor } from "../teams/roles.service.ts";
import { listSiteTeams } from "../teams/site-teams.service.ts";
import { TEAM_DELETION } from "../teams/teams.policy.ts";
import { AddMemberBody, ChangeMemberBody, CreateGroupBody, GroupMembersBody, RenameGroupBody, UpdateTeamBody } from "../teams/teams.schemas.ts";
import { deleteTeam, getTeamDetail, updateTeam } from "../teams/teams.service.ts";
import { UserSearchQuery } from "./admin.schemas.ts";
import { SiteTeamsQuery } from "./site.schemas.ts";
import { searchUsers } from "./users-search.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { UserPage } from "../../contract/api/admin.ts";
import { GroupAnswer, MemberAnswer, TeamAnswer, TeamDetail, TeamPage } from "../../contract/api/teams.ts";

// Fresh hook objects for every route (see teams.routes.ts). `admin: true` checks the caller's role
// on every call, so a token outlives no demotion; and, as on the admin API, an app's token needs a
// sign-in with a second factor (RFC 9470) while `admin_requires_mfa` is on.
const SITE = (scope: string) => ({ auth: { admin: true, scope } });
const TEAM_WRITE = () => SITE("site:team:write");

/** A site administrator acts on every team as its owner would (teams.policy.ts SITE_ACTOR_ROLE). */
const asSite = (principal: Principal): TeamActor => ({ siteAdminId: principal.user.id });

/**
 * The site API (`/api/oauth/site`, spec 1 section 2.3 rule 9, ARCHITECTURE section 4b): every user
 * and every team on the instance, for an administrator's session or an app holding a site scope,
 * in the shapes of the admin user list and the team views. Team changes go through the team
 * services, whose rules (a team keeps an owner) hold here too, and are audited with `via: "site"`.
 * Revoking a user's tokens lives with the tokens (oauth/site/site-tokens.routes.ts).
 */
export function siteRoutes(ctx: AppContext) {
  return new Elysia({ name: "site-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/site/users", ({ query }) => searchUsers(ctx, query), { ...SITE("site:user:read"), query: UserSearchQuery, response: UserPage })
    .get("/api/oauth/site/teams", ({ principal, query }) => listSiteTeams(ctx, principal.user.id, query), {
      ...SITE("site:team:read"),
      query: SiteTeamsQuery,
      response: TeamPage,
    })
    .get("/api/oauth/site/teams/:teamId", ({ principal, params }) => getTeamDetail(ctx, asSite(principal), params.teamId), {
      ...SITE("site:team:read"),
      response: TeamDetail,
    })
    .patch("/api/oauth/site/teams/:teamId", async ({ principal, params, body }) => ({ team: await updateTeam(ctx, asSite(principal), params.teamId, body) }), {
      ...TEAM_WRITE(),
      parse: "json",
      body: UpdateTeamBody,
      response: TeamAnswer,
    })
    .delete(
      "/api/oauth/site/teams/:teamId",
      async ({ principal, params }) => {
        await deleteTeam(ctx, asSite(principal), params.teamId);
        return { ok: true };
      },
      // As for the team's own deleters: a second factor within the last 15 minutes.
      { auth: { admin: true, scope: "site:team:delete", stepUp: TEAM_DELETION }, response: Ok },
    )
    .post(
      "/api/oauth/site/teams/:teamId/members",
      async ({ principal, params, body, set }) => {
        set.status = 201;
        return { member: await addMember(ctx, asSite(principal), params.teamId, body) };
      },
      { ...TEAM_WRITE(), parse: "json", body: AddMemberBody, response: { 201: MemberAnswer } },
    )
    .patch(
      "/api/oauth/site/teams/:teamId/members/:userId",
      async ({ principal, params, body }) => ({ member: await changeMemberRole(ctx, asSite(principal), params.teamId, params.userId, body.role) }),
      { ...TEAM_WRITE(), parse: "json", body: ChangeMemberBody, response: MemberAnswer },
    )
    .delete(
      "/api/oauth/site/teams/:teamId/members/:userId",
      async ({ principal, params }) => {
        await removeMember(ctx, asSite(principal), params.teamId, params.userId);
        return { ok: true };
      },
      { ...TEAM_WRITE(), response: Ok },
    )
    .post(
      "/api/oauth/site/teams/:teamId/groups",
      async ({ principal, params, body, set }) => {
        set.status = 201;
        return { group: await createGroup(ctx, asSite(principal), params.teamId, body) };
      },
      { ...TEAM_WRITE(), parse: "json", body: CreateGroupBody, response: { 201: GroupAnswer } },
    )
    .patch(
      "/api/oauth/site/teams/:teamId/groups/:slug",
      async ({ principal, params, body }) => ({ group: await renameGroup(ctx, asSite(principal), params.teamId, params.slug, body) }),
      {
        ...TEAM_WRITE(),
        parse: "json",
        body: RenameGroupBody,
        response: GroupAnswer,
      },
    )
    .put(
      "/api/oauth/site/teams/:teamId/groups/:slug/members",
      async ({ principal, params, body }) => ({ group: await setGroupMembers(ctx, asSite(principal), params.teamId, params.slug, body.user_ids) }),
      { ...TEAM_WRITE(), parse: "json", body: GroupMembersBody, response: GroupAnswer },
    )
    .delete(
      "/api/oauth/site/teams/:teamId/groups/:slug",
      async ({ principal, params }) => {
        await deleteGroup(ctx, asSite(principal), params.teamId, params.slug);
        return { ok: true };
      },
      { ...TEAM_WRITE(), response: Ok },
    );
}
