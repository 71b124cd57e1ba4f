import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { workspaceAuth } from "../signin/workspace-auth.ts";

/** Spec 2 section 4.1: sets, reorder, export and import. */
export function setsRoutes(ctx: AppContext) {
  return new Elysia({ name: "sets-routes", prefix: "/api/teams/:teamId" }).use(workspaceAuth(ctx));
}
