import type { Database } from "bun:sqlite";
import type { WalSync } from "./wal-sync.ts";

/** The connection and its after-commit queue (db/client.ts Db), named structurally to keep the files apart. */
type Connection = { $client: Database; $afterCommit: (() => void)[] };

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
 * loop serves the next batch; the batch settles, its answers and after-commit work (events) leave,
 * only once that fsync, begun after its COMMIT, has returned. A read waits for it too, so no answer
 * shows a write a power cut could still undo. Syncs run one at a time, each covering every batch
 * committed before it began. Outside a batch the connection stays at FULL. Without one (several
 * processes: another could read a row before its fsync), the COMMIT makes its own fsync.
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
   * `since` or later failed to commit or sync; null when nothing is pending and nothing is owed a refusal.
   */
  settled(since?: number): Promise<void> | null;
  /** Commits and syncs now (shutdown, tests). */
  flush(): void;
  /** Tells `listener` how long each batch took from its COMMIT to durable, in seconds (the metrics' commit latency). */
  observeCommits(listener: (seconds: number) => void): void;
  /** Tells `listener` of each batch that failed to commit or sync (a full disk, an I/O error). */
  observeFailures(listener: (error: Error, batch: number) => void): void;
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
  let open: Batch | null = null;
  let opened = 0;
  /** Committed, waiting for the next sync, oldest first. */
  const waiting: Batch[] = [];
  /** The batches the running sync covers. */
  let syncing: Batch[] | null = null;
  let lastFailed: { n: number; error: Error } | null = null;
  let observe = (_seconds: number) => {};
  let observeFailure = (_error: Error, _batch: number) => {};
  // Run as text each time: SQLite sets a safety level when it prepares the statement, so a
  // statement prepared once would do nothing on its first run.
  const restoreFull = () => {
    try {
      if (sync) sqlite.run("PRAGMA synchronous = FULL");
    } catch {} // still inside a transaction that ROLLBACK could not end: the next batch cannot open either
  };

  const settle = (batch: Batch) => {
    if (batch.settled) return;
    batch.settled = true;
    observe((performance.now() - batch.committedAt) / 1000);
    batch.resolve();
    // Events and other after-commit work of every request in the batch leave only now.
    for (const work of batch.work) work();
  };
  const fail = (batch: Batch, error: Error) => {
    if (batch.settled) return;
    batch.settled = true;
    if (!lastFailed || lastFailed.n < batch.n) lastFailed = { n: batch.n, error };
    observeFailure(error, batch.n);
    batch.reject(error);
  };
  const syncWaiting = () => {
    if (!sync || syncing || waiting.length === 0) return;
    const covered = waiting.splice(0);
    syncing = covered;
    sync
      .later()
      .then(
        () => {
          for (const batch of covered) settle(batch);
        },
        (error: Error) => {
          // Whether these writes reached the disk is unknown: their requests are refused. They are
          // committed and visible, so their after-commit work still runs.
          for (const batch of covered) {
            const unsettled = !batch.settled;
            fail(batch, error);
            if (unsettled) for (const work of batch.work) work();
          }
        },
      )
      .finally(() => {
        syncing = null;
        // What gathered while the disk worked commits now, as one batch, and its fsync starts.
        if (open) commit();
        else syncWaiting();
      });
  };
  const commit = () => {
    const batch = open;
    if (!batch) return;
    open = null;
    batch.committedAt = performance.now();
    try {
      sqlite.run("COMMIT");
    } catch (e) {
      try {
        sqlite.run("ROLLBACK");
      } catch {}
      restoreFull();
      db.$afterCommit.length = 0;
      fail(batch, e as Error);
      return;
    }
    restoreFull();
    batch.work = db.$afterCommit.splice(0);
    if (!sync) return settle(batch);
    waiting.push(batch);
    syncWaiting();
  };

  return {
    join() {
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
      if (!syncing) setImmediate(commit);
      return open.n;
    },
    settled(since = Number.POSITIVE_INFINITY) {
      const failedSince = () => (lastFailed && lastFailed.n >= since ? lastFailed.error : null);
      const failed = failedSince();
      if (failed) return Promise.reject(failed);
      const newest = open ?? waiting.at(-1) ?? syncing?.at(-1);
      if (!newest) return null;
      if (since === Number.POSITIVE_INFINITY) return newest.done;
      // A batch of this request's still syncing can fail before the newest settles: ask again then.
      return newest.done.then(() => {
        const late = failedSince();
        if (late) throw late;
      });
    },
    flush() {
      commit();
      // The running sync's batches too: settled here, its own end then finds nothing left to do.
      const pending = [...(syncing ?? []), ...waiting.splice(0)].filter((batch) => !batch.settled);
      if (!sync || pending.length === 0) return;
      try {
        sync.now();
      } catch (e) {
        for (const batch of pending) fail(batch, e as Error);
        return;
      }
      for (const batch of pending) settle(batch);
    },
    observeCommits(listener) {
      observe = listener;
    },
    observeFailures(listener) {
      observeFailure = listener;
    },
  };
}
