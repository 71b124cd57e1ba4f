import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { workspaceAuth } from "../signin/workspace-auth.ts";

/** Spec 2 section 4.2: todos, assignees, members, assigned-to-me; and comments (ARCHITECTURE section 4). */
export function todosRoutes(ctx: AppContext) {
  return new Elysia({ name: "todos-routes", prefix: "/api/teams/:teamId" }).use(workspaceAuth(ctx));
}
