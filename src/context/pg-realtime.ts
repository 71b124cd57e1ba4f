import type { PgClient } from "../db/pg/client.ts";
import type { Clock } from "../shared/clock.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";
import type { Logger } from "../shared/log.ts";
import type { BusEvent } from "./event-bus.ts";
import type { PgCluster } from "./pg-cluster.ts";

type Unnumbered = Omit<BusEvent, "id">;

/** The team's next `$2` ids: the row stays locked until the commit, so ids are given in commit order. */
const TAKE_IDS = `INSERT INTO "realtime_channels" ("team_id", "last_id") VALUES ($1, $2::bigint)
ON CONFLICT ("team_id") DO UPDATE SET "last_id" = "realtime_channels"."last_id" + $2::bigint
RETURNING "last_id"`;

/**
 * How realtime events are numbered when several instances share PostgreSQL (issue 46): events get
 * their team's next ids and are notified in one transaction. The row lock orders the commits of
 * one team's events as their ids, and LISTEN delivers notifications in commit order, so every
 * process of every instance hears a team's events in increasing order, with no gap: an id is
 * taken only by an event that is sent. READ COMMITTED: a second publisher waits for the lock and
 * then counts on from the committed row, where SERIALIZABLE would fail it and start over.
 *
 * A process sends one team's events one transaction at a time, in the order they were published
 * (a request's events keep their order); those published meanwhile go together in the next.
 */
export function numberAcrossInstances(pg: PgClient, cluster: PgCluster, { clock, log }: { clock: Clock; log: Logger }) {
  const queues = new Map<string, Unnumbered[]>();

  const send = async (teamId: string, batch: Unnumbered[]) => {
    try {
      await pg.transaction(
        async (tx) => {
          const { rows } = await tx.query<{ last_id: number }>(TAKE_IDS, [teamId, batch.length]);
          const first = (rows[0] as { last_id: number }).last_id - batch.length + 1;
          for (const [i, event] of batch.entries()) await cluster.announce(tx, CLUSTER_TOPICS.busEvent, { id: first + i, ...event });
        },
        { isolation: "read committed" },
      );
    } catch (error) {
      // The writes they report have committed: their subscribers see them when they next refetch.
      log.warn("realtime events not sent", { team: teamId, events: batch.length, error: (error as Error).message });
    }
  };
  const drain = async (teamId: string, queue: Unnumbered[]) => {
    while (queue.length > 0) await send(teamId, queue.splice(0));
    queues.delete(teamId);
  };

  return async (input: Omit<BusEvent, "id" | "at">): Promise<void> => {
    const event = { ...input, at: new Date(clock.now()).toISOString() };
    const queue = queues.get(input.teamId);
    if (queue) return void queue.push(event);
    const mine = [event];
    queues.set(input.teamId, mine);
    await drain(input.teamId, mine);
  };
}
