import type { AppContext } from "../context/context.ts";
import { createWorkspaceRuntime } from "./workspace.context.ts";
import { registerWorkspacePurges } from "./workspace.purge.ts";
import { endWorkspaceSessionsOnAccountEvents } from "./session/account-events.listener.ts";

/** What the workspace adds at boot: clearing its leftovers, and following the IdP's sign-outs and revocations. */
export function bootWorkspace(ctx: AppContext): void {
  ctx.workspace = createWorkspaceRuntime(ctx);
  registerWorkspacePurges(ctx);
  endWorkspaceSessionsOnAccountEvents(ctx);
}
