import type { AppContext } from "../context/context.ts";
import type { PurgeReport } from "../context/purges.ts";

/**
 * Deletes what can no longer be used, through every module's registered purge (context/purges.ts),
 * a batch per turn of the event loop, then gives the freed pages back to the file system.
 */
export async function purgeExpired(ctx: Pick<AppContext, "clock" | "purges" | "log">): Promise<PurgeReport> {
  const report = await ctx.purges.run(ctx.clock.now());
  for (const { name, error } of report.failures) ctx.log.error("purge failed", { purge: name, error: error instanceof Error ? error.message : String(error) });
  if (report.deleted > 0 || report.pagesGivenBack > 0)
    ctx.log.debug("purged", { rows: report.deleted, batches: report.batches, pages_given_back: report.pagesGivenBack });
  return report;
}
