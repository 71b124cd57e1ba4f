import { join } from "node:path";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { deleteBefore } from "../db/batch-delete.ts";
import { expiredEntriesPurge } from "./cache/docs-cache.ts";
import { createDocsRuntime } from "./docs.context.ts";
import { installGuide } from "./guide/guide.service.ts";
import { expiredDiagramsPurge } from "./site/diagrams.ts";
import { docsWebhookDeliveries } from "./webhook/deliveries.table.ts";
import { purgeSpool, SPOOL_FOLDER } from "./webhook/webhook-body.ts";

/**
 * What the docs site adds at boot: its runtime, Cairn's own guide as a source, and clearing its leftovers (expired cache entries
 * and diagram renders, old delivery records, webhook bodies a crash left spooled).
 */
export async function bootDocs(ctx: AppContext): Promise<void> {
  ctx.docs = createDocsRuntime();
  await installGuide(ctx);
  ctx.purges.register("docs cache", expiredEntriesPurge(ctx.db));
  ctx.purges.register("docs diagrams", expiredDiagramsPurge(ctx.db));
  ctx.purges.register("docs webhook deliveries", deleteBefore(ctx.db, docsWebhookDeliveries, docsWebhookDeliveries.receivedAt, KEEP_ENDED_MS));
  // Files, not rows: one step, and nothing more to come.
  ctx.purges.register("docs webhook spool", () => {
    purgeSpool(join(ctx.config.dataDir, SPOOL_FOLDER));
    return Promise.resolve(0);
  });
}
