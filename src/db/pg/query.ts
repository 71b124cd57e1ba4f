import { decodeRows } from "./decode.ts";
import { classifyError, DatabaseUnavailableError } from "./errors.ts";
import type { NumberedSql } from "./placeholders.ts";

/** Rows as objects keyed by column name, or as arrays of values in column order (what drizzle maps). */
export type QueryMode = "objects" | "arrays";

/** The rows (none for a write without RETURNING) and the rows an INSERT, UPDATE or DELETE changed. */
export type QueryResult<Row> = { rows: Row[]; changes: number };

export type Queryable = {
  /** Runs `sql` with `?` placeholders (drizzle's SQLite dialect) bound to `params`, in order. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], mode?: "objects"): Promise<QueryResult<Row>>;
  query(sql: string, params: readonly unknown[], mode: "arrays"): Promise<QueryResult<unknown[]>>;
  query(sql: string, params?: readonly unknown[], mode?: QueryMode): Promise<QueryResult<unknown>>;
  /** pg_notify(channel, payload): inside a transaction, delivered when it commits and not at all if it rolls back. */
  notify(channel: string, payload?: string): Promise<void>;
};

export type QuerySettings = {
  /** A query gives up after this long; 0: never. */
  timeoutMs: number;
  /** `?` to `$n` (placeholders.ts), cached per client. */
  numbering: (text: string) => NumberedSql;
};

/** Queryable over a Bun.SQL pool, transaction or savepoint. */
export function queryable(sql: Bun.SQL, settings: QuerySettings): Queryable {
  return {
    query: (text: string, params: readonly unknown[] = [], mode: QueryMode = "objects") => runQuery(sql, text, params, mode, settings),
    notify: (channel, payload) => settle(sql.notify(channel, payload)),
  } as Queryable;
}

async function runQuery(sql: Bun.SQL, text: string, params: readonly unknown[], mode: QueryMode, settings: QuerySettings): Promise<QueryResult<unknown>> {
  const { timeoutMs } = settings;
  const numbered = settings.numbering(text);
  // A text already in `$n` form (no `?`) is taken as it is.
  if (numbered.count > 0 && numbered.count !== params.length)
    throw new Error(`the statement has ${numbered.count} placeholders and ${params.length} parameters: ${text}`);
  const query = sql.unsafe(numbered.text, bindable(params));
  const arrays = mode === "arrays";
  if (arrays) query.values();
  const result = await settle(timeoutMs > 0 ? withDeadline(query, timeoutMs) : query);
  decodeRows(result, result.columns, arrays);
  return { rows: result, changes: result.affectedRows };
}

/** bun:sqlite binds true/false as 1/0, and the columns are integers: the same here. */
function bindable(params: readonly unknown[]): unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    if (typeof params[i] !== "boolean") continue;
    copy ??= params.slice();
    copy[i] = params[i] ? 1 : 0;
  }
  return copy ?? (params as unknown[]);
}

/** The same promise, its failure classified (a connection lost becomes DatabaseUnavailableError). */
export async function settle<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw classifyError(error);
  }
}

/**
 * Gives up on a query after `ms`: waiting for a pooled connection, or for a server that stopped
 * answering without closing the socket (a host gone dark), which TCP notices only after minutes.
 * The query is cancelled: unsent it never runs; running, the server stops it, unless it finished.
 */
function withDeadline<T>(query: Bun.SQL.Query<T>, ms: number): Promise<T & Bun.SQL.ResultMetadata> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      query.cancel();
      reject(new DatabaseUnavailableError(`no answer from the database within ${ms} ms`));
    }, ms);
    query.then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
