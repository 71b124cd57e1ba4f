import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { getMemberProfile } from "./member-profile.service.ts";
import { addMember, changeMemberRole, removeMember } from "./members.service.ts";
import { AddMemberBody, ChangeMemberBody, UpdateTeamBody } from "./teams.schemas.ts";
import { deleteTeam, getTeamDetail, updateTeam } from "./teams.service.ts";
import { TEAM_DELETION } from "./teams.policy.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { MemberAnswer, MemberProfile, TeamAnswer, TeamMemberList, TeamWithRoleAnswer } from "../../contract/api/teams.ts";

/**
 * One team, for tokens holding single-team scopes bound at consent (spec 1 section 2.3:
 * `team:<id>:read`, `:write`, `:delete`, `:member:read`, `:member:write`, `:member:profile:read`). A session may call
 * them too. Team rules (roles, the grant cap) apply on every call, as for the aggregate API.
 */
export function teamScopedRoutes(ctx: AppContext) {
  return new Elysia({ name: "team-scoped-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/team/:teamId", async ({ principal, params }) => ({ team: (await getTeamDetail(ctx, principal.user.id, params.teamId)).team }), {
      auth: { team: "read" },
      response: TeamWithRoleAnswer,
    })
    .patch("/api/oauth/me/team/:teamId", async ({ principal, params, body }) => ({ team: await updateTeam(ctx, principal.user.id, params.teamId, body) }), {
      auth: { team: "write" },
      parse: "json",
      body: UpdateTeamBody,
      response: TeamAnswer,
    })
    .delete(
      "/api/oauth/me/team/:teamId",
      async ({ principal, params }) => {
        await deleteTeam(ctx, principal.user.id, params.teamId);
        return { ok: true };
      },
      { auth: { team: "delete", stepUp: TEAM_DELETION }, response: Ok },
    )
    .get(
      "/api/oauth/me/team/:teamId/members",
      async ({ principal, params }) => ({ members: (await getTeamDetail(ctx, principal.user.id, params.teamId)).members }),
      {
        auth: { team: "member:read" },
        response: TeamMemberList,
      },
    )
    .get(
      "/api/oauth/me/team/:teamId/members/:userId/profile",
      async ({ principal, params }) => ({ profile: await getMemberProfile(ctx, principal.user.id, params.teamId, params.userId) }),
      { auth: { team: "member:profile:read" }, response: MemberProfile },
    )
    .post(
      "/api/oauth/me/team/:teamId/members",
      async ({ principal, params, body, set }) => {
        set.status = 201;
        return { member: await addMember(ctx, principal.user.id, params.teamId, body) };
      },
      { auth: { team: "member:write" }, parse: "json", body: AddMemberBody, response: { 201: MemberAnswer } },
    )
    .patch(
      "/api/oauth/me/team/:teamId/members/:userId",
      async ({ principal, params, body }) => ({ member: await changeMemberRole(ctx, principal.user.id, params.teamId, params.userId, body.role) }),
      {
        auth: { team: "member:write" },
        parse: "json",
        body: ChangeMemberBody,
        response: MemberAnswer,
      },
    )
    .delete(
      "/api/oauth/me/team/:teamId/members/:userId",
      async ({ principal, params }) => {
        await removeMember(ctx, principal.user.id, params.teamId, params.userId);
        return { ok: true };
      },
      { auth: { team: "member:write" }, response: Ok },
    );
}
