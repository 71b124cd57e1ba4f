import { classifyError, DatabaseUnavailableError, isRetryable } from "./errors.ts";
import { type Queryable, type QuerySettings, queryable, settle } from "./query.ts";

/** A transaction (or a savepoint in one): its queries run on its one connection. */
export type PgTx = Queryable & {
  /** Runs `body` in a savepoint: if it throws, its work is rolled back and the error rethrown; the transaction goes on. */
  savepoint<T>(body: (tx: PgTx) => Promise<T>): Promise<T>;
};

export type TxOptions = {
  /** Default "serializable" (issue 46: the one-use conditional update decides exactly one winner). */
  isolation?: "serializable" | "repeatable read" | "read committed";
  readOnly?: boolean;
  /** Runs of the body at most, serialization failures and deadlocks included. Default 5. */
  maxTries?: number;
};

export type TxSettings = QuerySettings & { acquireTimeoutMs: number; retries: RetryTurns };

const BACKOFF_BASE_MS = 4;

/**
 * The runs again of one client's transactions, one at a time. Transactions that conflicted
 * conflict again when they all run again together: a burst of 25 writes to one set (its row, the
 * same index pages) spent its 5 tries and still failed. Taking turns, a run again meets only
 * first runs and other instances' transactions. A first run never waits here.
 */
export function retryTurns() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>): Promise<T> => {
    const mine = last.then(run);
    last = mine.catch(() => {});
    return mine;
  };
}
export type RetryTurns = ReturnType<typeof retryTurns>;

/**
 * Runs `body` in a transaction on a connection of its own, again from the start after a
 * serialization failure (40001) or deadlock (40P01), after a random pause that doubles each time
 * (full jitter: colliding transactions spread out), in turn with the client's other runs again.
 * The body may run several times: it must do nothing outside the database that it cannot do twice.
 */
export async function runTransaction<T>(pool: Bun.SQL, body: (tx: PgTx) => Promise<T>, options: TxOptions, settings: TxSettings): Promise<T> {
  const { isolation = "serializable", readOnly = false, maxTries = 5 } = options;
  const begin = `isolation level ${isolation}${readOnly ? " read only" : ""}`;
  const run = async () => {
    const connection = await reserve(pool, settings.acquireTimeoutMs);
    try {
      return (await connection.begin(begin, (tx) => body(txHandle(tx, settings)))) as T;
    } finally {
      await connection.release();
    }
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await (attempt === 1 ? run() : settings.retries(run));
    } catch (error) {
      if (attempt >= maxTries || !isRetryable(error)) throw classifyError(error);
      await Bun.sleep(Math.random() * BACKOFF_BASE_MS * 2 ** attempt);
    }
  }
}

async function reserve(pool: Bun.SQL, timeoutMs: number): Promise<Bun.ReservedSQL> {
  try {
    return await settle(pool.reserve({ signal: AbortSignal.timeout(timeoutMs) }));
  } catch (error) {
    if ((error as Error).name !== "TimeoutError") throw error;
    throw new DatabaseUnavailableError(`no database connection free within ${timeoutMs} ms`, { cause: error });
  }
}

function txHandle(sql: Bun.TransactionSQL, settings: QuerySettings): PgTx {
  return {
    ...queryable(sql, settings),
    savepoint: <T>(body: (tx: PgTx) => Promise<T>) => settle(sql.savepoint((inner) => body(txHandle(inner, settings)))) as Promise<T>,
  };
}
