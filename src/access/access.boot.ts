import type { AppContext } from "../context/context.ts";
import { oldHitsPurge } from "./rate-limit.ts";

/** What the kernel registers for itself: clearing limit hits older than any window. */
export function bootAccess(ctx: AppContext): void {
  ctx.purges.register("rate limit hits", oldHitsPurge(ctx.db));
}
