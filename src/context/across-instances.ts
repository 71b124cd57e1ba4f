import type { PostgresStore } from "../db/pg/open.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/log.ts";
import type { Cluster } from "./cluster.ts";
import { type ListenRelay, pgCluster, storedNoticesPurge } from "./pg-cluster.ts";
import { numberAcrossInstances } from "./pg-realtime.ts";
import type { Purges } from "./purges.ts";

/**
 * What several instances on one PostgreSQL database share (issue 46), made by bootContext: the
 * instance's cluster stretched over all of them, the realtime events numbered in the database
 * (the event bus's `announce`), and the purge of the notices too long for NOTIFY.
 */
export async function shareAcrossInstances(
  db: PostgresStore,
  local: Cluster,
  relay: ListenRelay,
  { clock, log, purges }: { clock: Clock; log: Logger; purges: Purges },
) {
  const onError = (error: unknown) => log.warn("cluster notice failed", { error: (error as Error).message });
  const cluster = await pgCluster(db.$pg, local, relay, { clock, onError });
  purges.register("stored cluster notices", storedNoticesPurge(db.$pg));
  return { cluster, announce: numberAcrossInstances(db.$pg, cluster, { clock, log }) };
}
