import { classifyError, DatabaseUnavailableError, isRetryable } from "./errors.ts";
import { type Queryable, type QuerySettings, queryable, settle } from "./query.ts";
import type { TurnQueue } from "./turns.ts";

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
  /**
   * Waits, before the transaction takes its snapshot, until no transaction of the same turn runs:
   * in this process first (turns.ts, holding no connection), then on any instance (a session
   * advisory lock each, taken in order). Writers that update the same rows then follow each other
   * instead of failing to serialize. Inside a transaction already begun it can only hold the turns
   * to its end (transaction-scoped locks); a conflict with what its snapshot missed runs again.
   */
  turn?: string | readonly string[];
};

export type TxSettings = QuerySettings & { acquireTimeoutMs: number; turns: TurnQueue };

const BACKOFF_BASE_MS = 4;

/**
 * The key the runs again of one client's transactions queue on (turns.ts), one at a time.
 * Transactions that conflicted conflict again when they all run again together: a burst of 25
 * writes to one set (its row, the same index pages) spent its 5 tries and still failed. Taking
 * turns, a run again meets only first runs and other instances' transactions. A first run never
 * waits for it. Turn names are the code's own, none empty.
 */
const RUN_AGAIN = "";

/**
 * Runs `body` in a transaction on a connection of its own, again from the start after a
 * serialization failure (40001) or deadlock (40P01), after a random pause that doubles each time
 * (full jitter: colliding transactions spread out), in turn with the client's other runs again.
 * The body may run several times: it must do nothing outside the database that it cannot do twice.
 */
export async function runTransaction<T>(pool: Bun.SQL, body: (tx: PgTx) => Promise<T>, options: TxOptions, settings: TxSettings): Promise<T> {
  const { isolation = "serializable", readOnly = false, maxTries = 5 } = options;
  const begin = `isolation level ${isolation}${readOnly ? " read only" : ""}`;
  const turns = turnNames(options.turn);
  const run = async () => {
    const connection = await reserve(pool, settings.acquireTimeoutMs);
    const session = queryable(connection, settings);
    let taken = 0;
    let reusable = true;
    try {
      for (; taken < turns.length; taken++) await session.query(TAKE_TURN, [turns[taken]]);
      return (await connection.begin(begin, (tx) => body(txHandle(tx, settings)))) as T;
    } finally {
      // Queued behind the lock's statement on this connection: it unlocks even a lock that came after its deadline.
      for (const turn of turns.slice(0, taken + 1))
        reusable &&= await session.query(LEAVE_TURN, [turn]).then(
          () => true,
          () => false,
        );
      // A connection whose lock may still be held must not go back to the pool with it.
      await (reusable ? connection.release() : connection.close());
    }
  };
  const runs = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await (attempt === 1 ? run() : settings.turns([RUN_AGAIN], run));
      } catch (error) {
        if (!isRetryable(error)) throw classifyError(error);
        // Still colliding after every run: the database is too busy for this write now, and says so (503, Retry-After).
        if (attempt >= maxTries) throw new DatabaseUnavailableError(`the transaction still conflicted after ${maxTries} runs`, { cause: error });
        await Bun.sleep(Math.random() * BACKOFF_BASE_MS * 2 ** attempt);
      }
    }
  };
  return turns.length === 0 ? runs() : settings.turns(turns, runs);
}

/** The turns named, each once, in the order they are taken. */
export const turnNames = (turn: TxOptions["turn"]): string[] => (turn === undefined ? [] : [...new Set(typeof turn === "string" ? [turn] : turn)].sort());

const TAKE_TURN = "select pg_advisory_lock(hashtextextended($1, 0))";
const LEAVE_TURN = "select pg_advisory_unlock(hashtextextended($1, 0))";
/** The turn, inside a transaction already begun: held until it ends. */
export const HOLD_TURN = "select pg_advisory_xact_lock(hashtextextended($1, 0))";

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
