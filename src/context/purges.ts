import type { PurgeStep } from "../db/batch-delete.ts";
import type { Db } from "../db/client.ts";
import { freePages, giveBackPages, isIncremental, keptFreePages, pageCount } from "../db/vacuum.ts";

/**
 * Deleting what can no longer be used: each module that owns a one-use or expiring table
 * registers how to clear its own leftovers at boot (a `PurgeStep`, mostly `deleteDue`), and the
 * purge job runs them all.
 *
 * Issue 43: a purge costs what it deletes and never holds the event loop. Each step deletes one
 * batch, found through an index, inside the group commit (db/group-commit.ts) like any request's
 * write; then the purge waits for a later turn and for that batch to be durable before the next,
 * so requests are served between batches and the write lock is never held for long. Free pages
 * beyond a reserve for the writes to come (db/vacuum.ts keptFreePages) are then handed back to
 * the file system the same way, a few at a time.
 */
export type Purges = {
  register(name: string, step: PurgeStep): void;
  /** Every registered purge; one that throws does not stop the others. A run asked for while one is under way joins it. */
  run(now: number): Promise<PurgeReport>;
  /** The registered steps by name (tests: each finds its rows through an index). */
  readonly steps: ReadonlyMap<string, PurgeStep>;
};

export type PurgeReport = { deleted: number; batches: number; pagesGivenBack: number; failures: { name: string; error: unknown }[] };

/**
 * How long one batch may hold the event loop. Rows cost from 4 µs (a one-use id) to 20 µs (a
 * grant, whose user index is touched at a random place) at 10^6 grants, so each purge sizes its
 * batches from what its last one took, between BATCH_ROWS' bounds (test/bench/scale/purges.ts).
 */
export const TURN_BUDGET_MS = 2;
export const BATCH_ROWS = { first: 100, min: 16, max: 500 } as const;
/** Pages (4 KB) one step hands back: about 0.3 ms. */
export const VACUUM_STEP_PAGES = 128;

/**
 * The next batch's size after one of `rows` deleted `deleted` in `tookMs`: moved halfway (in ratio)
 * toward what fits the budget, so one slow turn (a busy machine) does not swing it.
 */
export function nextBatchRows(rows: number, deleted: number, tookMs: number, budgetMs = TURN_BUDGET_MS): number {
  const fitted = (deleted * budgetMs) / Math.max(tookMs, 0.01);
  return Math.round(Math.min(BATCH_ROWS.max, Math.max(BATCH_ROWS.min, Math.sqrt(rows * fitted))));
}

/** Lets the turn end: the batch commits (setImmediate, db/group-commit.ts), requests get served, and its fsync returns. */
async function nextTurn(db: Db, since: number): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await db.$group.settled(since);
}

export function createPurges(db: Db, { vacuumPages = VACUUM_STEP_PAGES } = {}): Purges {
  const steps = new Map<string, PurgeStep>();
  /** Each purge's batch size, as its last batch suggested. */
  const sizes = new Map<string, number>();
  let running: Promise<PurgeReport> | null = null;

  /** One purge, batch after batch, each in its own turn. */
  async function drain(name: string, step: PurgeStep, now: number, report: PurgeReport): Promise<void> {
    for (;;) {
      const rows = sizes.get(name) ?? BATCH_ROWS.first;
      const since = db.$group.join();
      const started = performance.now();
      let deleted: number;
      try {
        deleted = await step(now, rows);
      } catch (error) {
        report.failures.push({ name, error });
        return;
      }
      // Nothing found says nothing of what a row costs.
      if (deleted > 0) sizes.set(name, nextBatchRows(rows, deleted, performance.now() - started));
      report.deleted += deleted;
      report.batches++;
      await nextTurn(db, since);
      if (deleted < rows) return;
    }
  }

  /** What the purges freed goes back to the file system, a step per turn (a file made before incremental vacuum keeps it: db/vacuum.ts). */
  async function giveBack(report: PurgeReport): Promise<void> {
    // PostgreSQL's autovacuum keeps its own files; a SQLite file made before incremental vacuum keeps what it freed.
    if (db.$dialect !== "sqlite" || !isIncremental(db.$client)) return;
    for (;;) {
      const extra = freePages(db.$client) - keptFreePages(pageCount(db.$client));
      if (extra <= 0) return;
      const since = db.$group.join();
      // bun:sqlite itself, so through the gate: never inside another request's open transaction (db/tx-gate.ts).
      const given = await db.$gate.run(() => giveBackPages(db.$client, Math.min(vacuumPages, extra)));
      report.pagesGivenBack += given;
      await nextTurn(db, since);
      if (given === 0) return;
    }
  }

  async function runAll(now: number): Promise<PurgeReport> {
    const report: PurgeReport = { deleted: 0, batches: 0, pagesGivenBack: 0, failures: [] };
    for (const [name, step] of steps) {
      try {
        await drain(name, step, now, report);
      } catch (error) {
        // The batch holding this purge's deletes failed to commit: it stops, the others go on.
        report.failures.push({ name, error });
      }
    }
    try {
      await giveBack(report);
    } catch (error) {
      report.failures.push({ name: "incremental vacuum", error });
    }
    return report;
  }

  return {
    steps,
    register(name, step) {
      if (steps.has(name)) throw new Error(`purge "${name}" registered twice`);
      steps.set(name, step);
    },
    run(now) {
      running ??= runAll(now).finally(() => {
        running = null;
      });
      return running;
    },
  };
}

/** Ended sessions and grants stay this long (the session list, the audit of who signed in), then go. */
export const KEEP_ENDED_MS = 30 * 86_400_000;
