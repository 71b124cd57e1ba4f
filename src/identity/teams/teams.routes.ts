import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { listAudit } from "../audit/audit.service.ts";
import { denied } from "../../access/access.errors.ts";
import { createGroup, deleteGroup, renameGroup, setGroupMembers } from "./groups.service.ts";
import { addMember, changeMemberRole, removeMember } from "./members.service.ts";
import { requireVisibleTeam } from "./roles.service.ts";
import { canReadAudit, TEAM_DELETION } from "./teams.policy.ts";
import {
  AddMemberBody,
  AuditQuery,
  ChangeMemberBody,
  CreateGroupBody,
  CreateTeamBody,
  GroupMembersBody,
  RenameGroupBody,
  UpdateTeamBody,
} from "./teams.schemas.ts";
import { createTeam, deleteTeam, getTeamDetail, listMyTeams, updateTeam } from "./teams.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { AuditEntries } from "../../contract/api/admin.ts";
import { GroupAnswer, MemberAnswer, TeamAnswer, TeamDetail, TeamList } from "../../contract/api/teams.ts";

// Fresh hook objects for every route: Elysia writes the macro's resolved hooks into the object it
// is given, so one shared object would carry the first app's context into every later app.
const READ = () => ({ auth: { scope: "teams:read" } });
const WRITE = () => ({ auth: { scope: "teams:write" } });

/** The caller's teams (spec 1 section 2.3, aggregate `teams:*` scopes; ARCHITECTURE section 4). */
export function teamsRoutes(ctx: AppContext) {
  return new Elysia({ name: "teams-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/teams", async ({ principal }) => ({ teams: await listMyTeams(ctx, principal.user.id) }), { ...READ(), response: TeamList })
    .post(
      "/api/oauth/me/teams",
      async ({ principal, body, set }) => {
        set.status = 201;
        return { team: await createTeam(ctx, principal.user.id, body) };
      },
      { auth: { scope: "teams:create" }, parse: "json", body: CreateTeamBody, response: { 201: TeamAnswer } },
    )
    .get("/api/oauth/me/teams/:teamId", ({ principal, params }) => getTeamDetail(ctx, principal.user.id, params.teamId), { ...READ(), response: TeamDetail })
    .patch("/api/oauth/me/teams/:teamId", async ({ principal, params, body }) => ({ team: await updateTeam(ctx, principal.user.id, params.teamId, body) }), {
      ...WRITE(),
      parse: "json",
      body: UpdateTeamBody,
      response: TeamAnswer,
    })
    .delete(
      "/api/oauth/me/teams/:teamId",
      async ({ principal, params }) => {
        await deleteTeam(ctx, principal.user.id, params.teamId);
        return { ok: true };
      },
      { auth: { scope: "teams:delete", stepUp: TEAM_DELETION }, response: Ok },
    )
    .post(
      "/api/oauth/me/teams/:teamId/members",
      async ({ principal, params, body, set }) => {
        set.status = 201;
        return { member: await addMember(ctx, principal.user.id, params.teamId, body) };
      },
      { ...WRITE(), parse: "json", body: AddMemberBody, response: { 201: MemberAnswer } },
    )
    .patch(
      "/api/oauth/me/teams/:teamId/members/:userId",
      async ({ principal, params, body }) => ({ member: await changeMemberRole(ctx, principal.user.id, params.teamId, params.userId, body.role) }),
      { ...WRITE(), parse: "json", body: ChangeMemberBody, response: MemberAnswer },
    )
    .delete(
      "/api/oauth/me/teams/:teamId/members/:userId",
      async ({ principal, params }) => {
        await removeMember(ctx, principal.user.id, params.teamId, params.userId);
        return { ok: true };
      },
      { ...WRITE(), response: Ok },
    )
    .post(
      "/api/oauth/me/teams/:teamId/groups",
      async ({ principal, params, body, set }) => {
        set.status = 201;
        return { group: await createGroup(ctx, principal.user.id, params.teamId, body) };
      },
      { ...WRITE(), parse: "json", body: CreateGroupBody, response: { 201: GroupAnswer } },
    )
    .patch(
      "/api/oauth/me/teams/:teamId/groups/:slug",
      async ({ principal, params, body }) => ({ group: await renameGroup(ctx, principal.user.id, params.teamId, params.slug, body) }),
      {
        ...WRITE(),
        parse: "json",
        body: RenameGroupBody,
        response: GroupAnswer,
      },
    )
    .put(
      "/api/oauth/me/teams/:teamId/groups/:slug/members",
      async ({ principal, params, body }) => ({ group: await setGroupMembers(ctx, principal.user.id, params.teamId, params.slug, body.user_ids) }),
      { ...WRITE(), parse: "json", body: GroupMembersBody, response: GroupAnswer },
    )
    .delete(
      "/api/oauth/me/teams/:teamId/groups/:slug",
      async ({ principal, params }) => {
        await deleteGroup(ctx, principal.user.id, params.teamId, params.slug);
        return { ok: true };
      },
      { ...WRITE(), response: Ok },
    )
    .get(
      "/api/oauth/me/teams/:teamId/audit",
      async ({ principal, params, query }) => {
        if (!canReadAudit(await requireVisibleTeam(ctx, principal.user.id, params.teamId))) throw denied("The audit log needs the admin role or higher.");
        return { entries: await listAudit(ctx, { teamId: params.teamId, before: query.before, limit: query.limit }) };
      },
      { ...READ(), query: AuditQuery, response: AuditEntries },
    );
}
