import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { MatrixAnswer, OverridesAnswer, TeamSettingsAnswer, UserSettingsAnswer } from "../../contract/api/workspace-settings.ts";
import { workspacePlugin } from "../plugin/workspace.plugin.ts";
import { getSetOverrides, getTeamMatrix, putSetOverrides, putTeamMatrix } from "./permission-settings.service.ts";
import { readTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";
import { patchTeamSettings } from "./team-settings.service.ts";
import { putUserSettings, readUserSettings } from "./user-settings.service.ts";
import { SetParamsSchema, TeamSettingsPatchSchema, UserSettingsPatchSchema } from "./workspace-settings.schemas.ts";

/** Spec 3 sections 4.2 and 4.3 (team and user settings) and the permission matrix endpoints. */
export function workspaceSettingsRoutes(ctx: AppContext) {
  return (
    new Elysia({ name: "workspace-settings-routes" })
      .use(workspacePlugin(ctx))
      .get("/api/teams/:teamId/settings", async ({ caller }) => ({ settings: await readTeamSettings(ctx, caller.teamId) }), {
        workspace: "member",
        response: TeamSettingsAnswer,
      })
      .patch("/api/teams/:teamId/settings", async ({ caller, body }) => ({ settings: await patchTeamSettings(ctx, caller, body) }), {
        workspace: "member",
        parse: "json",
        body: TeamSettingsPatchSchema,
        response: TeamSettingsAnswer,
      })
      .get("/api/user/settings", async ({ caller }) => ({ settings: await readUserSettings(ctx, caller.userId) }), {
        workspaceSession: true,
        response: UserSettingsAnswer,
      })
      .put("/api/user/settings", async ({ caller, body }) => ({ settings: await putUserSettings(ctx, caller.userId, body) }), {
        workspaceSession: true,
        parse: "json",
        body: UserSettingsPatchSchema,
        response: UserSettingsAnswer,
      })
      .get("/api/teams/:teamId/permissions", async ({ caller }) => ({ permissions: await getTeamMatrix(ctx, caller.teamId) }), {
        workspace: "member",
        response: MatrixAnswer,
      })
      // The matrix is checked by validateMatrix (unknown roles or keys are refused, not ignored).
      .put("/api/teams/:teamId/permissions", async ({ caller, body }) => ({ permissions: await putTeamMatrix(ctx, caller, body) }), {
        workspace: "member",
        parse: "json",
        body: t.Unknown(),
        response: MatrixAnswer,
      })
      .get(
        "/api/teams/:teamId/sets/:setId/permissions",
        async ({ caller, params }) => ({ permissions: await getSetOverrides(ctx, caller.teamId, params.setId) }),
        {
          workspace: "member",
          params: SetParamsSchema,
          response: OverridesAnswer,
        },
      )
      .put(
        "/api/teams/:teamId/sets/:setId/permissions",
        async ({ caller, params, body }) => ({ permissions: await putSetOverrides(ctx, caller, params.setId, body) }),
        {
          workspace: "member",
          params: SetParamsSchema,
          parse: "json",
          body: t.Unknown(),
          response: OverridesAnswer,
        },
      )
  );
}
