import { join } from "node:path";
import { lt } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { purgeExpired } from "./cache/docs-cache.ts";
import { createDocsRuntime } from "./docs.context.ts";
import { installGuide } from "./guide/guide.service.ts";
import { purgeDiagrams } from "./site/diagrams.ts";
import { docsWebhookDeliveries } from "./webhook/deliveries.table.ts";
import { purgeSpool, SPOOL_FOLDER } from "./webhook/webhook-body.ts";

/**
 * What the docs site adds at boot: its runtime, Cairn's own guide as a source, and clearing its leftovers (expired cache entries
 * and diagram renders, old delivery records, webhook bodies a crash left spooled).
 */
export function bootDocs(ctx: AppContext): void {
  ctx.docs = createDocsRuntime();
  installGuide(ctx);
  ctx.purges.register("docs cache", (now) => purgeExpired(ctx, now));
  ctx.purges.register("docs diagrams", (now) => purgeDiagrams(ctx, now));
  ctx.purges.register(
    "docs webhook deliveries",
    (now) =>
      void ctx.db
        .delete(docsWebhookDeliveries)
        .where(lt(docsWebhookDeliveries.receivedAt, now - KEEP_ENDED_MS))
        .run(),
  );
  ctx.purges.register("docs webhook spool", () => purgeSpool(join(ctx.config.dataDir, SPOOL_FOLDER)));
}
