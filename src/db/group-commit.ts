import type { Database } from "bun:sqlite";
import type { WalSync } from "./wal-sync.ts";

/** The connection and its after-commit queue (db/client.ts Db), named structurally to keep the files apart. */
type Connection = { $client: Database; $afterCommit: (() => void)[]; $gate?: { whenFree(work: () => void): void } };

/**
 * Group commit (issue 12): the writes of requests that arrive together share one transaction and
 * one fsync. The first write request of a turn of the event loop opens the shared transaction;
 * it commits once the turn's work is done (setImmediate), and every response waits for the batch
 * that holds its writes to be durable (`settled`), so nothing is acknowledged before it is on
 * disk. `withTx` inside it is a savepoint: one request's failure rolls back only its own part, and
 * conditional updates decide one-use things exactly as before, as everything still runs on the one
 * connection, one statement after another.
 *
 * With a `WalSync` (one process serving), the batch's COMMIT leaves out the fsync that
 * `synchronous=FULL` makes, and the WAL is fsynced on the thread pool instead, while the event
 * loop serves on; the batch settles, and its answers and after-commit work (events) leave, only
 * once that fsync, begun after its COMMIT, has returned. A read waits for it too, so no answer
 * shows a write a power cut could still undo. One fsync runs at a time; meanwhile the next batch
 * stays open, gathering the writes of the turns that pass, and commits when the fsync returns.
 * Outside a batch the connection stays at FULL. Without a `WalSync` (several processes: another
 * could read a row before its fsync), the COMMIT makes its own fsync.
 *
 * A failed fsync leaves the batch committed and visible with its durability unknown, and Linux
 * may report a lost write-back only once, so no later fsync could vouch for what follows it in the
 * WAL. The group then fails for good (`failure`): every request is refused until a restart
 * recovers from what is on disk. So does a transaction that ROLLBACK could not end.
 *
 * Batches are numbered. A request that awaits between writes can have written into a batch that
 * has settled, or failed, by the time it answers; it learns the first number it could have
 * written into when it joins, and `settled` refuses it if any batch from that number on failed.
 */
export type GroupCommit = {
  /** Opens the shared transaction for this turn, if none is open. Returns the number of the first batch the caller's writes can land in. */
  join(): number;
  /**
   * Resolves when what has been written so far is durable, and rejects when a batch numbered
   * `since` or later failed to commit or sync (any request, once the group has failed for good);
   * null when nothing is pending and nothing is owed a refusal.
   */
  settled(since?: number): Promise<void> | null;
  /** Why the group refuses every request from now on (a failed fsync), or null. */
  failure(): Error | null;
  /**
   * Runs `work` once what was committed so far is durable: at once when nothing is pending, else
   * after the batch being synced (also when it fails: the caller's own writes committed apart).
   */
  afterDurable(work: () => void): void;
  /** Notices a batch SQLite rolled back by itself before a transaction of the caller's own begins (db/tx.ts withTx). */
  recover(): void;
  /** Whether a batch is open: the connection's transaction is the group's, not one withTx began. */
  holding(): boolean;
  /** Commits and syncs now (shutdown, tests). */
  flush(): void;
  /** Tells `listener` how long each batch took from its COMMIT to durable, in seconds (the metrics' commit latency). */
  observeCommits(listener: (seconds: number) => void): void;
  /** Tells `listener` of each batch that failed to commit or sync (a full disk, an I/O error), and of after-commit work that threw (batch 0). */
  observeFailures(listener: (error: Error, batch: number) => void): void;
  /** Tells `listener`, once, that the group failed for good and why (`what`: the cause in a few words). */
  observeBreak(listener: (error: Error, what: string) => void): void;
};

type Batch = {
  n: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
  /** After-commit work of its requests, run once it is durable. */
  work: (() => void)[];
  committedAt: number;
  settled: boolean;
};

export function createGroupCommit(db: Connection, sync: WalSync | null = null): GroupCommit {
  const sqlite = db.$client;
  // A transaction body still open (its statements are awaited) is a savepoint in the batch: the
  // COMMIT waits for it to end (db/tx-gate.ts).
  const commitWhenFree = () => (db.$gate ? db.$gate.whenFree(commit) : commit());
  let open: Batch | null = null;
  let opened = 0;
  /** Committed, waiting for the next sync, oldest first. */
  const waiting: Batch[] = [];
  /** The batches the running sync covers. */
  let syncing: Batch[] | null = null;
  let lastFailed: { n: number; error: Error } | null = null;
  let broken: Error | null = null;
  let observe = (_seconds: number) => {};
  let observeFailure = (_error: Error, _batch: number) => {};
  let observeBreak = (_error: Error, _what: string) => {};
  // Run as text each time: SQLite sets a safety level when it prepares the statement, so a
  // statement prepared once would do nothing on its first run.
  const restoreFull = () => {
    if (sync && !sqlite.inTransaction) sqlite.run("PRAGMA synchronous = FULL");
  };

  const settle = (batch: Batch) => {
    if (batch.settled) return;
    batch.settled = true;
    observe((performance.now() - batch.committedAt) / 1000);
    batch.resolve();
  };
  const fail = (batch: Batch, error: Error) => {
    if (batch.settled) return;
    batch.settled = true;
    batch.work = []; // a refused batch's events never leave, whatever a later fsync says
    if (!lastFailed || lastFailed.n < batch.n) lastFailed = { n: batch.n, error };
    observeFailure(error, batch.n);
    batch.reject(error);
  };
  /** The batches are durable: their requests are answered, then their events and other after-commit work leave, each on its own. */
  const settleAll = (batches: Batch[]) => {
    for (const batch of batches) settle(batch);
    for (const batch of batches)
      for (const work of batch.work.splice(0)) {
        try {
          work();
        } catch (e) {
          observeFailure(e as Error, 0);
        }
      }
  };
  /** For good: what is open is rolled back, and everything not yet durable (`more` too) is refused. Reported once. */
  const breakDown = (error: Error, what: string, ...more: Batch[]) => {
    if (!broken) {
      broken = error;
      observeBreak(error, what);
    }
    for (const pending of [...(syncing ?? []), ...waiting.splice(0), ...more]) fail(pending, error);
    const batch = open;
    open = null;
    if (batch) {
      try {
        sqlite.run("ROLLBACK");
        restoreFull();
      } catch {}
      db.$afterCommit.length = 0;
      fail(batch, error);
    }
  };
  /** Made durable now, on this thread: after writes that may have committed at NORMAL outside a batch. */
  const syncNow = () => {
    if (!sync) return;
    try {
      sync.now();
    } catch (e) {
      breakDown(e as Error, "WAL fsync failed");
    }
  };
  /** SQLite itself rolled the open batch back (a full disk, an I/O error): it failed, and writes since then autocommitted at NORMAL. */
  const lost = (batch: Batch) => {
    open = null;
    db.$afterCommit.length = 0;
    restoreFull();
    fail(batch, new Error("the database rolled the batch back (disk full or I/O error)"));
    syncNow();
  };
  /** Notices a batch SQLite rolled back by itself. */
  const recover = () => {
    if (open && !sqlite.inTransaction) lost(open);
  };
  /** The newest batch not yet durable: its outcome is that of all before it (see `settled`). */
  const newest = () => open ?? waiting.at(-1) ?? syncing?.at(-1);
  const syncWaiting = () => {
    if (!sync || syncing || waiting.length === 0 || broken) return;
    const covered = waiting.splice(0);
    syncing = covered;
    sync
      .later()
      .then(
        () => settleAll(covered),
        (error: Error) => breakDown(error, "WAL fsync failed"),
      )
      .finally(() => {
        syncing = null;
        // What gathered while the disk worked commits now, as one batch, and its fsync starts.
        if (open) commitWhenFree();
        else syncWaiting();
      });
  };
  const commit = () => {
    const batch = open;
    if (!batch || broken) return;
    if (!sqlite.inTransaction) return lost(batch);
    open = null;
    batch.committedAt = performance.now();
    try {
      sqlite.run("COMMIT");
    } catch (e) {
      try {
        sqlite.run("ROLLBACK");
      } catch {}
      db.$afterCommit.length = 0;
      if (sqlite.inTransaction) return breakDown(e as Error, "a failed batch's transaction could not be ended", batch);
      fail(batch, e as Error);
      restoreFull();
      return syncWaiting();
    }
    restoreFull();
    batch.work = db.$afterCommit.splice(0);
    if (!sync) return settleAll([batch]);
    waiting.push(batch);
    syncWaiting();
  };

  return {
    join() {
      recover();
      if (broken) return opened + 1; // also when the fsync after a loss just failed
      if (open) return open.n;
      // A synchronous section that will end first: what it writes commits on its own, at FULL.
      if (sqlite.inTransaction) return opened + 1;
      if (sync) sqlite.run("PRAGMA synchronous = NORMAL");
      try {
        sqlite.run("BEGIN IMMEDIATE");
      } catch (e) {
        restoreFull();
        throw e;
      }
      let resolve = () => {};
      let reject: (e: Error) => void = () => {};
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Awaited by every response; a rejection nobody awaits must not crash the process.
      done.catch(() => {});
      open = { n: ++opened, done, resolve, reject, work: [], committedAt: 0, settled: false };
      // While an fsync runs, the batch stays open and gathers the writes of the turns meanwhile.
      if (!syncing) setImmediate(commitWhenFree);
      return open.n;
    },
    settled(since = Number.POSITIVE_INFINITY) {
      const failed = broken ?? (lastFailed && lastFailed.n >= since ? lastFailed.error : null);
      if (failed) return Promise.reject(failed);
      // Batches settle in order, a failed COMMIT fails only the newest, and a failed fsync every
      // batch after it too: the newest batch's outcome is that of all before it.
      return newest()?.done ?? null;
    },
    failure: () => broken,
    afterDurable(work) {
      const pending = newest();
      if (!pending) return work();
      const run = () => {
        try {
          work();
        } catch (e) {
          observeFailure(e as Error, 0);
        }
      };
      pending.done.then(run, run);
    },
    recover,
    holding: () => open !== null,
    flush() {
      commit();
      // The running sync's batches too: settled here, its own end then finds nothing left to do.
      const pending = [...(syncing ?? []), ...waiting.splice(0)].filter((batch) => !batch.settled);
      if (!sync || pending.length === 0) return;
      syncNow();
      if (broken) {
        for (const batch of pending) fail(batch, broken);
        return;
      }
      settleAll(pending);
    },
    observeCommits(listener) {
      observe = listener;
    },
    observeFailures(listener) {
      observeFailure = listener;
    },
    observeBreak(listener) {
      observeBreak = listener;
    },
  };
}
