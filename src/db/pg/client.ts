/**
 * The PostgreSQL connection Cairn uses (issue 46), over Bun's built-in client (Bun.SQL): a pool,
 * transactions on a connection of their own, LISTEN/NOTIFY, a readiness probe.
 *
 * ```ts
 * const pg = openPostgres("postgres://cairn@db/cairn", { onListenLost, onListenRestored });
 * const { rows } = await pg.query('select "id" from "users" where "id" = ? limit ?', [id, 1]);
 * const { rows } = await pg.query(sql, params, "arrays"); // [[id], ...]: what drizzle maps
 * const { changes } = await pg.query('update "codes" set "used_at" = ? where "id" = ? and "used_at" is null', [now, id]);
 * await pg.transaction(async (tx) => { await tx.query(...); await tx.savepoint(async (sp) => ...); await tx.notify("events", "1"); });
 * const sub = await pg.listen("events", (payload) => ...); await sub.unlisten();
 * await pg.notify("events", "payload");
 * await pg.ping(1000); // true or false, never throws
 * await pg.close();
 * ```
 *
 * - SQL text: drizzle's SQLite dialect, `?` placeholders (numbered `$1..$n` here, never inside a
 *   string, quoted identifier, comment or dollar quote). A text with no `?` runs as written (`$n`).
 * - Values read as bun:sqlite gives them: `bigint` and `numeric` (count(*), sum()) as JS numbers,
 *   `boolean` as 1/0, `bytea` as Buffer (a Uint8Array), `double precision` as number, text, null.
 *   Booleans bind as 1/0.
 * - Errors: a server out of reach (refused, closed, terminated, starting up, too many connections,
 *   no connection or no answer in time) is a DatabaseUnavailableError (errors.ts); any other error
 *   is the driver's own PostgresError, whose SQLSTATE `sqlState(error)` reads ("23505":
 *   UNIQUE_VIOLATION, with `error.constraint` naming the index). The client outlives an outage:
 *   after the server is back the same client works again.
 * - transaction(): SERIALIZABLE by default, run again on 40001/40P01 (at most 5 runs, jittered
 *   backoff, the runs again of one client taking turns), so the body may run more than once.
 * - listen(): one connection of its own for every channel. When it drops, onListenLost; it is
 *   replaced (tried at least every second) and every channel subscribed again, then
 *   onListenRestored: what was notified in between is lost, so caches start over.
 */
import { createListener, type ListenEvents, type Subscription } from "./listener.ts";
import { cachedNumbering } from "./placeholders.ts";
import { type Queryable, queryable } from "./query.ts";
import { type PgTx, runTransaction, type TxOptions } from "./transaction.ts";
import { turnQueue } from "./turns.ts";

export { DatabaseUnavailableError, FOREIGN_KEY_VIOLATION, isUnavailable, sqlState, UNIQUE_VIOLATION } from "./errors.ts";
export type { Queryable, QueryMode, QueryResult } from "./query.ts";
export type { PgTx, TxOptions } from "./transaction.ts";
export type { Subscription };

export type PgOptions = ListenEvents & {
  /** Pooled connections (a transaction reserves one; listening has its own). Default 10. */
  max?: number;
  /** Give up connecting after this long: a server that does not answer is unavailable. Default 2000. */
  connectTimeoutMs?: number;
  /** A transaction waits this long for a pooled connection. Default 5000. */
  acquireTimeoutMs?: number;
  /** A query (its wait for a connection included) gives up after this long; 0: never. Default 30000. */
  queryTimeoutMs?: number;
  /** Shown in pg_stat_activity. Default "cairn". */
  applicationName?: string;
};

export type PgClient = Queryable & {
  transaction<T>(body: (tx: PgTx) => Promise<T>, options?: TxOptions): Promise<T>;
  /** Calls `onMessage` with each payload notified on `channel`, from any client, until unlisten(). */
  listen(channel: string, onMessage: (payload: string) => void): Promise<Subscription>;
  /** Whether the server answers a query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Waits (up to 5 s) for running queries, then closes every connection. */
  close(): Promise<void>;
};

/** A client of the PostgreSQL database at `url` (postgres://user:password@host:port/database?sslmode=...). */
export function openPostgres(url: string, options: PgOptions = {}): PgClient {
  const { max = 10, connectTimeoutMs = 2000, acquireTimeoutMs = 5000, queryTimeoutMs = 30_000, applicationName = "cairn" } = options;
  // Bun counts the connect timeout in whole seconds.
  const connectTimeoutS = Math.max(1, Math.ceil(connectTimeoutMs / 1000));
  const pool = new Bun.SQL(url, { max, connectionTimeout: connectTimeoutS, connection: { application_name: applicationName } });
  const listener = createListener(url, connectTimeoutS, options);
  const settings = { acquireTimeoutMs, timeoutMs: queryTimeoutMs, numbering: cachedNumbering(), turns: turnQueue() };

  return {
    ...queryable(pool, settings),
    transaction: (body, txOptions = {}) => runTransaction(pool, body, txOptions, settings),
    listen: (channel, onMessage) => listener.listen(channel, onMessage),
    async ping(timeoutMs = 1000) {
      try {
        await queryable(pool, { ...settings, timeoutMs }).query("select 1", [], "arrays");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await listener.close();
      await pool.close({ timeout: 5 });
    },
  };
}
