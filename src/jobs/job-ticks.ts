import type { Cron } from "croner";
import type { Db } from "../db/client.ts";
import type { PgClient } from "../db/pg/client.ts";
import type { PostgresStore } from "../db/pg/open.ts";

/**
 * The tick claimed when it is newer than the job's last: a first claim inserts the row, a later
 * one moves it forward. Among concurrent claims of one tick the row lock lets one through; the
 * others, once it commits, find the tick no longer newer and change nothing.
 */
const CLAIM = `INSERT INTO "job_ticks" AS j ("name", "tick") VALUES ($1, $2::bigint)
ON CONFLICT ("name") DO UPDATE SET "tick" = excluded."tick" WHERE j."tick" < excluded."tick"`;

/** Whether this caller runs `name`'s `tick` (ms): true for exactly one of the instances claiming it. */
export async function claimTick(pg: PgClient, name: string, tick: number): Promise<boolean> {
  return (await pg.query(CLAIM, [name, tick])).changes === 1;
}

/**
 * The time the run under way was scheduled for: the schedule's latest time at or before the
 * moment croner `started` it. Instances whose clocks differ by less than the schedule's period, or
 * that start it a little late, name the same tick.
 */
export function scheduledTick(job: Cron, started: Date = job.currentRun() ?? new Date()): number {
  return (job.previousRuns(1, new Date(started.getTime() + 1))[0] ?? started).getTime();
}

/**
 * Whether this instance runs the job's current run. Every instance schedules every job; on
 * PostgreSQL the one that claims the tick runs it (issue 46). Alone on SQLite the primary always does.
 */
export function ownsRun(db: Db, name: string, job: Cron): Promise<boolean> | true {
  return db.$dialect === "postgres" ? claimTick((db as PostgresStore).$pg, name, scheduledTick(job)) : true;
}
