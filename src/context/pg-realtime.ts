import type { PgClient } from "../db/pg/client.ts";
import type { Clock } from "../shared/clock.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";
import type { Logger } from "../shared/log.ts";
import type { BusEvent } from "./event-bus.ts";
import type { PgCluster } from "./pg-cluster.ts";

type Unnumbered = Omit<BusEvent, "id">;
/** An event waiting to be sent, and who learns its id (null: not sent). */
type Queued = { event: Unnumbered; numbered: (id: number | null) => void };

/** Events numbered and sent in one transaction at the most: one statement binds two parameters a team. */
const MAX_BATCH = 1000;

/**
 * Each team's next `count` ids, for the teams of a batch in one statement. The rows stay locked
 * until the commit, so a team's ids are given in commit order; every process takes them in the
 * order of the team ids, so two batches never wait for each other's rows in a cycle.
 */
const takeIds = (teams: number) =>
  `INSERT INTO "realtime_channels" ("team_id", "last_id") VALUES ${Array.from({ length: teams }, (_, i) => `($${2 * i + 1}, $${2 * i + 2}::bigint)`).join(", ")}
ON CONFLICT ("team_id") DO UPDATE SET "last_id" = "realtime_channels"."last_id" + excluded."last_id"
RETURNING "team_id", "last_id"`;

/**
 * How realtime events are numbered when several instances share PostgreSQL (issue 46): events get
 * their teams' next ids and are notified in one transaction. A team's row lock orders the commits
 * of its events as their ids, and LISTEN delivers notifications in commit order, so every process
 * of every instance hears a team's events in increasing order, with no gap: an id is taken only
 * by an event that is sent. READ COMMITTED: a second publisher waits for the lock and then counts
 * on from the committed row, where SERIALIZABLE would fail it and start over.
 *
 * A process sends one transaction at a time, its events in the order they were published (a
 * request's events keep their order); those published meanwhile go together in the next, as one
 * notice.
 */
export function numberAcrossInstances(pg: PgClient, cluster: PgCluster, { clock, log }: { clock: Clock; log: Logger }) {
  const pending: Queued[] = [];
  let sending = false;

  const send = async (batch: Queued[]) => {
    const counts = new Map<string, number>();
    for (const { event } of batch) counts.set(event.teamId, (counts.get(event.teamId) ?? 0) + 1);
    const teams = [...counts.keys()].sort();
    let ids: number[] | null = null;
    try {
      ids = await pg.transaction(
        async (tx) => {
          const { rows } = await tx.query<{ team_id: string; last_id: number }>(
            takeIds(teams.length),
            teams.flatMap((team) => [team, counts.get(team)]),
          );
          const next = new Map(rows.map((r) => [r.team_id, r.last_id - (counts.get(r.team_id) as number) + 1]));
          const taken = batch.map(({ event }) => {
            const id = next.get(event.teamId) as number;
            next.set(event.teamId, id + 1);
            return id;
          });
          await cluster.announce(
            tx,
            CLUSTER_TOPICS.busEvent,
            batch.map(({ event }, i) => ({ id: taken[i], ...event })),
          );
          return taken;
        },
        { isolation: "read committed" },
      );
    } catch (error) {
      // The writes they report have committed: their subscribers see them when they next refetch.
      log.warn("realtime events not sent", { teams: teams.length, events: batch.length, error: (error as Error).message });
    }
    for (const [i, { numbered }] of batch.entries()) numbered(ids?.[i] ?? null);
  };
  const drain = async () => {
    sending = true;
    while (pending.length > 0) await send(pending.splice(0, MAX_BATCH));
    sending = false;
  };

  return (input: Omit<BusEvent, "id" | "at">): Promise<number | null> =>
    new Promise((numbered) => {
      pending.push({ event: { ...input, at: new Date(clock.now()).toISOString() }, numbered });
      if (!sending) void drain();
    });
}
