import type { Database } from "bun:sqlite";

/** The connection and its after-commit queue (db/client.ts Db), named structurally to keep the files apart. */
type Connection = { $client: Database; $afterCommit: (() => void)[] };

/**
 * Group commit (issue 12): the writes of requests that arrive together share one transaction and
 * one fsync. The first write request of a turn of the event loop opens the shared transaction;
 * it commits once the turn's work is done (setImmediate), with `synchronous=FULL` as always, and
 * every response waits for the commit that holds its writes (`settled`), so nothing is
 * acknowledged before it is durable. `withTx` inside it is a savepoint: one request's failure
 * rolls back only its own part, and conditional updates decide one-use things exactly as before,
 * as everything still runs on the one connection, one statement after another.
 *
 * Batches are numbered. A request that awaits between writes can have written into a batch that
 * has committed, or failed, by the time it answers; it learns the first number it could have
 * written into when it joins, and `settled` refuses it if any batch from that number on failed.
 */
export type GroupCommit = {
  /** Opens the shared transaction for this turn, if none is open. Returns the number of the first batch the caller's writes can land in. */
  join(): number;
  /**
   * Resolves when what has been written so far is committed, and rejects when a batch numbered
   * `since` or later failed to commit; null when nothing is pending and nothing is owed a refusal.
   */
  settled(since?: number): Promise<void> | null;
  /** Commits now (shutdown, tests). */
  flush(): void;
  /** Tells `listener` how long each commit took, in seconds (the metrics' commit latency). */
  observeCommits(listener: (seconds: number) => void): void;
  /** Tells `listener` of each batch that failed to commit (a full disk, an I/O error). */
  observeFailures(listener: (error: Error, batch: number) => void): void;
};

type Batch = { n: number; done: Promise<void>; resolve: () => void; reject: (e: Error) => void };

export function createGroupCommit(db: Connection): GroupCommit {
  let open: Batch | null = null;
  let opened = 0;
  let lastFailed: { n: number; error: Error } | null = null;
  let observe = (_seconds: number) => {};
  let observeFailure = (_error: Error, _batch: number) => {};
  const flush = () => {
    const batch = open;
    if (!batch) return;
    open = null;
    const started = performance.now();
    try {
      db.$client.run("COMMIT");
    } catch (e) {
      try {
        db.$client.run("ROLLBACK");
      } catch {}
      db.$afterCommit.length = 0;
      lastFailed = { n: batch.n, error: e as Error };
      observeFailure(e as Error, batch.n);
      batch.reject(e as Error);
      return;
    }
    observe((performance.now() - started) / 1000);
    batch.resolve();
    // Events and other after-commit work of every request in the batch leave only now.
    for (const work of db.$afterCommit.splice(0)) work();
  };
  return {
    join() {
      if (open) return open.n;
      // A synchronous section that will end first: what it writes commits on its own.
      if (db.$client.inTransaction) return opened + 1;
      db.$client.run("BEGIN IMMEDIATE");
      let resolve = () => {};
      let reject: (e: Error) => void = () => {};
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Awaited by every response; a rejection nobody awaits must not crash the process.
      done.catch(() => {});
      open = { n: ++opened, done, resolve, reject };
      setImmediate(flush);
      return open.n;
    },
    settled(since = Number.POSITIVE_INFINITY) {
      if (lastFailed && lastFailed.n >= since) return Promise.reject(lastFailed.error);
      return open?.done ?? null;
    },
    flush,
    observeCommits(listener) {
      observe = listener;
    },
    observeFailures(listener) {
      observeFailure = listener;
    },
  };
}
