import type { AppContext } from "../context/context.ts";
import type { PostgresStore } from "../db/pg/open.ts";
import { oldHitsPurge } from "./rate-limit.ts";
import { windowHitsPurge } from "./window-limit.pg.ts";

/** What the kernel registers for itself: clearing limit hits older than any window, and on PostgreSQL the ended windows. */
export function bootAccess(ctx: AppContext): void {
  ctx.purges.register("rate limit hits", oldHitsPurge(ctx.db));
  if (ctx.db.$dialect === "postgres") ctx.purges.register("window hits", windowHitsPurge((ctx.db as PostgresStore).$pg));
}
