import { asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { KEEP_ENDED_MS } from "../../context/purges.ts";
import { addressKey } from "../../access/window-limit.ts";
import { changedRows } from "../../db/changes.ts";
import { pendingAtCap } from "../../db/pending-cap.ts";
import { docsWebhookDeliveries } from "./deliveries.table.ts";
import { tooManyUnsigned } from "./webhook.errors.ts";

/**
 * Unsigned deliveries (no DOCS_WEBHOOK_SECRET: spec 3 section 5.3 accepts them, "local testing
 * only") per client address and minute. Signed ones are not limited: they come from the hosting
 * service's few addresses, which do not retry a refused delivery.
 */
export const UNSIGNED_PER_MINUTE = 60;
/** Rows of the delivery log younger than their 30 days, at most: past it the oldest gives way (the admin page shows the newest). */
export const MAX_DELIVERY_ROWS = 10_000;
/** GitHub's longest owner/name (39 + 1 + 100 + slack); a longer one names no source. */
const MAX_REPOSITORY_CHARS = 201;
const MAX_EVENT_CHARS = 50;
const MAX_RESULT_CHARS = 500;

export type Delivery = typeof docsWebhookDeliveries.$inferInsert;

/** Refuses (429, before the body is read) an address past UNSIGNED_PER_MINUTE unsigned deliveries this minute. */
export function unsignedGate(ctx: Pick<AppContext, "access" | "clock">) {
  const perAddress = ctx.access.windows("docs-webhook-unsigned", { max: UNSIGNED_PER_MINUTE, windowMs: 60_000 });
  return async (ip: string): Promise<void> => {
    const wait = await perAddress.hit(addressKey(ip), ctx.clock.now());
    if (wait !== null) throw tooManyUnsigned(wait);
  };
}

/**
 * Adds a row to the log, its texts cut to size; answers false when its id or digest is there
 * already (the claim a processed push makes). Past MAX_DELIVERY_ROWS live rows the oldest is
 * dropped, so no flood grows the file without bound (expired ones go with the purge job).
 */
export async function recordDelivery(ctx: Pick<AppContext, "db">, row: Delivery): Promise<boolean> {
  const t = docsWebhookDeliveries;
  const added =
    changedRows(
      await ctx.db
        .insert(t)
        .values({
          ...row,
          event: row.event.slice(0, MAX_EVENT_CHARS),
          repository: row.repository?.slice(0, MAX_REPOSITORY_CHARS) ?? null,
          result: row.result.slice(0, MAX_RESULT_CHARS),
        })
        .onConflictDoNothing()
        .run(),
    ) === 1;
  const live = row.receivedAt - KEEP_ENDED_MS;
  if (added && (await pendingAtCap(ctx.db, t, t.receivedAt, live, MAX_DELIVERY_ROWS + 1))) {
    // Ties in time go by insertion order (rowid): the row just added is never the oldest.
    const oldest = ctx.db.select({ id: t.id }).from(t).where(gt(t.receivedAt, live)).orderBy(asc(t.receivedAt), asc(sql`rowid`)).limit(1);
    await ctx.db.delete(t).where(inArray(t.id, oldest)).run();
  }
  return added;
}

/** The result of a claimed row, once known. */
export async function settleDelivery(ctx: Pick<AppContext, "db">, id: string, result: string, invalidated: number): Promise<void> {
  await ctx.db
    .update(docsWebhookDeliveries)
    .set({ result: result.slice(0, MAX_RESULT_CHARS), invalidated })
    .where(eq(docsWebhookDeliveries.id, id))
    .run();
}
