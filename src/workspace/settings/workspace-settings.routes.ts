import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { workspaceAuth } from "../signin/workspace-auth.ts";

/** Spec 3 sections 4.2 and 4.3 (team and user settings) and the permission matrix endpoints. */
export function workspaceSettingsRoutes(ctx: AppContext) {
  return new Elysia({ name: "workspace-settings-routes" }).use(workspaceAuth(ctx));
}
