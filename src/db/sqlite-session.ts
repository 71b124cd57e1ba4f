import type { Database, Statement } from "bun:sqlite";
import { entityKind, fillPlaceholders, type Query } from "drizzle-orm";
import {
  type SelectedFieldsOrdered,
  type SQLiteAsyncDialect,
  type SQLiteExecuteMethod,
  SQLitePreparedQuery,
  SQLiteSession,
  type SQLiteTransaction,
} from "drizzle-orm/sqlite-core";
import { mapResultRow, nullableJoins } from "./drizzle-rows.ts";
import type { TxGate } from "./tx-gate.ts";

/** What a write answers: bun:sqlite's own, the changed-row count read by db/changes.ts. */
export type RunResult = { changes: number; lastInsertRowid: number | bigint };

type Mapper = (rows: unknown[][], mapColumnValue?: (value: unknown) => unknown) => unknown;

/**
 * drizzle's bun:sqlite session made awaitable (issue 46): the queries the application writes are
 * the same on SQLite and PostgreSQL, and awaited on both. Here a statement still runs at once on
 * the one connection, through the transaction gate (db/tx-gate.ts), and answers a settled promise.
 * The row mapping is drizzle's, as its bun:sqlite session does it.
 */
export class GatedSQLiteSession extends SQLiteSession<"async", RunResult, Record<string, never>, never> {
  static override readonly [entityKind] = "CairnGatedSQLiteSession";

  constructor(
    private readonly client: Database,
    dialect: SQLiteAsyncDialect,
    private readonly gate: TxGate,
  ) {
    super(dialect);
  }

  prepareQuery(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    executeMethod: SQLiteExecuteMethod,
    isResponseInArrayMode: boolean,
    customResultMapper?: Mapper,
  ) {
    const stmt = this.client.prepare(query.sql);
    // biome-ignore lint/suspicious/noExplicitAny: drizzle's prepared-query generics are internal
    return new GatedPreparedQuery(stmt, this.gate, query, fields, executeMethod, isResponseInArrayMode, customResultMapper) as any;
  }

  override transaction<T>(_body: (tx: SQLiteTransaction<"async", RunResult, Record<string, never>, never>) => Promise<T>): Promise<T> {
    // Transactions are db/tx.ts withTx: savepoints within the group commit's batch, behind the gate.
    throw new Error("use withTx (db/tx.ts), not drizzle's transaction()");
  }
}

// biome-ignore lint/suspicious/noExplicitAny: drizzle's PreparedQueryConfig is generic over every query shape
class GatedPreparedQuery extends SQLitePreparedQuery<any> {
  static override readonly [entityKind] = "CairnGatedPreparedQuery";

  constructor(
    private readonly stmt: Statement,
    private readonly gate: TxGate,
    query: Query,
    private readonly fields: SelectedFieldsOrdered | undefined,
    executeMethod: SQLiteExecuteMethod,
    private readonly arrayMode: boolean,
    private readonly customResultMapper?: Mapper,
  ) {
    super("async", executeMethod, query);
  }

  run(placeholderValues?: Record<string, unknown>): Promise<RunResult> {
    const params = fillPlaceholders(this.query.params, placeholderValues ?? {}) as never[];
    return this.gate.run(() => this.stmt.run(...params));
  }

  all(placeholderValues?: Record<string, unknown>): Promise<unknown[]> {
    const params = fillPlaceholders(this.query.params, placeholderValues ?? {}) as never[];
    const { fields, customResultMapper, stmt } = this;
    if (!fields && !customResultMapper) return this.gate.run(() => stmt.all(...params));
    return this.gate.run(() => {
      const rows = stmt.values(...params) as unknown[][];
      if (customResultMapper) return customResultMapper(rows) as unknown[];
      return rows.map((row) => mapResultRow(fields as SelectedFieldsOrdered, row, nullableJoins(this)));
    });
  }

  get(placeholderValues?: Record<string, unknown>): Promise<unknown> {
    const params = fillPlaceholders(this.query.params, placeholderValues ?? {}) as never[];
    return this.gate.run(() => {
      const row = (this.stmt.values(...params) as unknown[][])[0];
      if (!row) return undefined;
      const { fields, customResultMapper } = this;
      if (!fields && !customResultMapper) return row;
      if (customResultMapper) return customResultMapper([row]);
      return mapResultRow(fields as SelectedFieldsOrdered, row, nullableJoins(this));
    });
  }

  values(placeholderValues?: Record<string, unknown>): Promise<unknown[][]> {
    const params = fillPlaceholders(this.query.params, placeholderValues ?? {}) as never[];
    return this.gate.run(() => this.stmt.values(...params) as unknown[][]);
  }

  /** @internal drizzle asks it of every prepared query. */
  isResponseInArrayMode(): boolean {
    return this.arrayMode;
  }
}
