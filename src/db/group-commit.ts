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
 */
export type GroupCommit = {
  /** Opens the shared transaction for this turn, if none is open. */
  join(): void;
  /** Resolves when what has been written so far is committed; null when nothing is pending. */
  settled(): Promise<void> | null;
  /** Commits now (shutdown, tests). */
  flush(): void;
  /** Tells `listener` how long each commit took, in seconds (the metrics' commit latency). */
  observeCommits(listener: (seconds: number) => void): void;
};

type Batch = { done: Promise<void>; resolve: () => void; reject: (e: Error) => void };

export function createGroupCommit(db: Connection): GroupCommit {
  let open: Batch | null = null;
  let observe = (_seconds: number) => {};
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
      // A transaction already open is this batch, or a synchronous section that will end first.
      if (open || db.$client.inTransaction) return;
      db.$client.run("BEGIN IMMEDIATE");
      let resolve = () => {};
      let reject: (e: Error) => void = () => {};
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Awaited by every response; a rejection nobody awaits must not crash the process.
      done.catch(() => {});
      open = { done, resolve, reject };
      setImmediate(flush);
    },
    settled: () => open?.done ?? null,
    flush,
    observeCommits(listener) {
      observe = listener;
    },
  };
}
