import type { AppContext } from "../context/context.ts";
import { createForwardAuthRuntime } from "./forward-auth.context.ts";
import { bootForwardAuthCheck } from "./check/check.boot.ts";

/** What forward auth adds at boot: its runtime (the rules kept in memory). */
export function bootForwardAuth(ctx: AppContext): void {
  ctx.forwardAuth = createForwardAuthRuntime();
  bootForwardAuthCheck(ctx);
}
