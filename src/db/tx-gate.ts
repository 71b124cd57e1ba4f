import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A transaction: the database it runs on, the work waiting for its commit (db/tx.ts), whether it
 * is still open, and on PostgreSQL the connection it holds (db/pg/database.ts).
 */
export type TxFrame = { readonly connection: object; work: (() => void)[]; open: boolean; handle?: unknown };

/**
 * Which transaction the running code is inside, carried across its awaits (Spring's
 * transaction-bound thread, in async form): a statement made inside a transaction body runs in it
 * whichever object issued it, prepared statements made at start included.
 */
export const txScope = new AsyncLocalStorage<TxFrame>();

/**
 * One connection's transaction gate (issue 46). Statements are awaited, so between two statements
 * of a transaction body other requests run; on the one SQLite connection their statements would
 * land inside that transaction, and a rollback would undo them. While a transaction is open, a
 * statement from outside it waits, and runs in order once it ends; statements from inside run at
 * once. Uncontended, a statement costs one check. A transaction body awaits only the database,
 * so the gate is held for the microtasks its statements take, never across I/O.
 */
export type TxGate = {
  /** Runs `statement` now when no transaction is open or the caller is inside it, else once the open one ends. */
  run<T>(statement: () => T): Promise<T>;
  /** Takes the gate for `frame` (a new outermost transaction): at once when free, else in turn. */
  acquire(frame: TxFrame): Promise<void> | undefined;
  /** Frees the gate and lets waiting statements and transactions go, in order. */
  release(): void;
  /** The open transaction, if any. */
  owner(): TxFrame | null;
  /** Runs `work` now when the gate is free, else when it is next freed (the group commit's COMMIT). */
  whenFree(work: () => void): void;
};

/** A statement run now, its outcome as a settled promise (a throw becomes a rejection). */
export const settle = <T>(statement: () => T): Promise<T> => {
  try {
    return Promise.resolve(statement());
  } catch (e) {
    return Promise.reject(e);
  }
};

export function createTxGate(): TxGate {
  let owner: TxFrame | null = null;
  const waiting: (() => void)[] = [];
  let onFree: (() => void)[] = [];
  return {
    run(statement) {
      if (owner === null || txScope.getStore() === owner) return settle(statement);
      return new Promise((resolve, reject) => waiting.push(() => settle(statement).then(resolve, reject)));
    },
    acquire(frame) {
      if (owner === null) {
        owner = frame;
        return undefined;
      }
      return new Promise<void>((resolve) =>
        waiting.push(() => {
          owner = frame;
          resolve();
        }),
      );
    },
    release() {
      owner = null;
      // Statements run until one waiting transaction takes the gate; the rest wait for it in turn.
      while (owner === null && waiting.length > 0) (waiting.shift() as () => void)();
      if (owner === null && onFree.length > 0) {
        const work = onFree;
        onFree = [];
        for (const w of work) w();
      }
    },
    owner: () => owner,
    whenFree(work) {
      if (owner === null) work();
      else onFree.push(work);
    },
  };
}
