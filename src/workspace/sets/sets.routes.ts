import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { Ok } from "../../contract/api/common.ts";
import { CreatedSet, ExportedSet, ImportedIntoSet, ImportedNewSet, SetList } from "../../contract/api/workspace.ts";
import { workspacePlugin } from "../plugin/workspace.plugin.ts";
import { CreateSetBody, ExportQuery, ImportIntoSetBody, ImportNewSetBody, PatchSetBody, ReorderSetsBody, SetParams } from "./sets.schemas.ts";
import { createSet, deleteSet, listSets, patchSet, reorderSets } from "./sets.service.ts";
import { exportTeamSet, importIntoSet, importNewSet } from "./sets-transfer.service.ts";

/** Spec 2 section 4.1: sets, reorder, export and import. */
export function setsRoutes(ctx: AppContext) {
  return (
    new Elysia({ name: "sets-routes" })
      .use(workspacePlugin(ctx))
      .get("/api/teams/:teamId/sets", ({ caller }) => listSets(ctx, caller), { workspace: "member", response: SetList })
      .post(
        "/api/teams/:teamId/sets",
        async ({ caller, body, set }) => {
          set.status = 201;
          return { set: await createSet(ctx, caller, body.name) };
        },
        { workspace: "member", body: CreateSetBody, response: { 201: CreatedSet } },
      )
      // Static paths before `:setId`, so `reorder` and `import` are never read as set ids.
      .post(
        "/api/teams/:teamId/sets/reorder",
        async ({ caller, body }) => {
          await reorderSets(ctx, caller, body.items);
          return { ok: true as const };
        },
        { workspace: "member", body: ReorderSetsBody, response: Ok },
      )
      .post(
        "/api/teams/:teamId/sets/import",
        async ({ caller, body, set }) => {
          const result = await importNewSet(ctx, caller, body);
          set.status = 201;
          return result;
        },
        { workspace: "member", body: ImportNewSetBody, response: { 201: ImportedNewSet } },
      )
      .patch(
        "/api/teams/:teamId/sets/:setId",
        async ({ caller, params, body }) => {
          await patchSet(ctx, caller, params.setId, body);
          return { ok: true as const };
        },
        { workspace: "member", params: SetParams, body: PatchSetBody, response: Ok },
      )
      .delete(
        "/api/teams/:teamId/sets/:setId",
        async ({ caller, params }) => {
          await deleteSet(ctx, caller, params.setId);
          return { ok: true as const };
        },
        { workspace: "member", params: SetParams, response: Ok },
      )
      .get(
        "/api/teams/:teamId/sets/:setId/export",
        ({ caller, params, query }) => exportTeamSet(ctx, caller, params.setId, query.format ?? "md", query.includeComments === "1"),
        {
          workspace: "member",
          params: SetParams,
          query: ExportQuery,
          response: ExportedSet,
        },
      )
      .post("/api/teams/:teamId/sets/:setId/import", ({ caller, params, body }) => importIntoSet(ctx, caller, params.setId, body), {
        workspace: "member",
        params: SetParams,
        body: ImportIntoSetBody,
        response: ImportedIntoSet,
      })
  );
}
