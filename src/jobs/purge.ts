import type { AppContext } from "../context/context.ts";

/** Deletes what can no longer be used, through every module's registered purge (context/purges.ts). */
export function purgeExpired(ctx: Pick<AppContext, "clock" | "purges" | "log">): void {
  for (const { name, error } of ctx.purges.run(ctx.clock.now()))
    ctx.log.error("purge failed", { purge: name, error: error instanceof Error ? error.message : String(error) });
}
