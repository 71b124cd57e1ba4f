import type { AppContext } from "../context/context.ts";
import { endWorkspaceSessionsOnAccountEvents } from "./signin/account-events.listener.ts";

/** What the workspace adds at boot: following the IdP's sign-outs and revocations. */
export function bootWorkspace(ctx: AppContext): void {
  endWorkspaceSessionsOnAccountEvents(ctx);
}
