import type { AppContext } from "../../context/context.ts";
import { registerAuthzSessionPurges } from "../sessions/authz-sessions.purge.ts";
import { createCheckRuntime } from "./check.context.ts";

/** What the check adds at boot: its memory of cookies, tokens and people, and the purge of its cookies. */
export function bootForwardAuthCheck(ctx: AppContext): void {
  ctx.forwardAuthCheck = createCheckRuntime(ctx.db);
  registerAuthzSessionPurges(ctx);
}
