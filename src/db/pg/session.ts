import { entityKind, fillPlaceholders, type Query } from "drizzle-orm";
import {
  type SelectedFieldsOrdered,
  type SQLiteAsyncDialect,
  type SQLiteExecuteMethod,
  SQLitePreparedQuery,
  SQLiteSession,
  type SQLiteTransaction,
} from "drizzle-orm/sqlite-core";
import { mapResultRow, nullableJoins } from "../drizzle-rows.ts";
import type { RunResult } from "../sqlite-session.ts";
import type { Queryable } from "./query.ts";

type Mapper = (rows: unknown[][], mapColumnValue?: (value: unknown) => unknown) => unknown;

const CONFLICT_TARGET = /\bon conflict \(([^()]*)\)/g;

/**
 * The one place drizzle's SQLite SQL is not PostgreSQL's: SQLite accepts a table-qualified
 * conflict target (`on conflict ("settings"."key")`), PostgreSQL wants the bare column names.
 */
export function unqualifyConflictTarget(text: string): string {
  return text.replace(CONFLICT_TARGET, (_all, columns: string) => `on conflict (${columns.replace(/"(?:[^"]|"")+"\./g, "")})`);
}

/**
 * drizzle's SQLite queries run on PostgreSQL (issue 46). The application writes each query once,
 * with drizzle's SQLite builders over its tables; the SQL they make (double-quoted names, `?`
 * placeholders, `on conflict`, `returning`, `limit`) is also PostgreSQL's, over tables that store
 * the same values (db/pg migrations), and the client numbers the placeholders. `target` is the
 * connection to use now: the open transaction's, or the pool.
 */
export class PostgresSession extends SQLiteSession<"async", RunResult, Record<string, never>, never> {
  static override readonly [entityKind] = "CairnPostgresSession";

  constructor(
    private readonly target: () => Queryable,
    dialect: SQLiteAsyncDialect,
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
    const text = { ...query, sql: unqualifyConflictTarget(query.sql) };
    // biome-ignore lint/suspicious/noExplicitAny: drizzle's prepared-query generics are internal
    return new PostgresPreparedQuery(this.target, text, fields, executeMethod, isResponseInArrayMode, customResultMapper) as any;
  }

  override transaction<T>(_body: (tx: SQLiteTransaction<"async", RunResult, Record<string, never>, never>) => Promise<T>): Promise<T> {
    throw new Error("use withTx (db/tx.ts), not drizzle's transaction()");
  }
}

// biome-ignore lint/suspicious/noExplicitAny: drizzle's PreparedQueryConfig is generic over every query shape
class PostgresPreparedQuery extends SQLitePreparedQuery<any> {
  static override readonly [entityKind] = "CairnPostgresPreparedQuery";

  constructor(
    private readonly target: () => Queryable,
    query: Query,
    private readonly fields: SelectedFieldsOrdered | undefined,
    executeMethod: SQLiteExecuteMethod,
    private readonly arrayMode: boolean,
    private readonly customResultMapper?: Mapper,
  ) {
    super("async", executeMethod, query);
  }

  private params(placeholderValues?: Record<string, unknown>): unknown[] {
    return fillPlaceholders(this.query.params, placeholderValues ?? {});
  }

  private map(rows: unknown[][]): unknown[] {
    const { fields, customResultMapper } = this;
    if (customResultMapper) return customResultMapper(rows) as unknown[];
    return rows.map((row) => mapResultRow(fields as SelectedFieldsOrdered, row, nullableJoins(this)));
  }

  async run(placeholderValues?: Record<string, unknown>): Promise<RunResult> {
    const { changes } = await this.target().query(this.query.sql, this.params(placeholderValues), "arrays");
    return { changes, lastInsertRowid: 0 };
  }

  async all(placeholderValues?: Record<string, unknown>): Promise<unknown[]> {
    if (!this.fields && !this.customResultMapper) return (await this.target().query(this.query.sql, this.params(placeholderValues), "objects")).rows;
    return this.map((await this.target().query(this.query.sql, this.params(placeholderValues), "arrays")).rows);
  }

  async get(placeholderValues?: Record<string, unknown>): Promise<unknown> {
    const { rows } = await this.target().query(this.query.sql, this.params(placeholderValues), "arrays");
    const row = rows[0];
    if (!row) return undefined;
    if (!this.fields && !this.customResultMapper) return row;
    if (this.customResultMapper) return this.customResultMapper([row]);
    return mapResultRow(this.fields as SelectedFieldsOrdered, row, nullableJoins(this));
  }

  async values(placeholderValues?: Record<string, unknown>): Promise<unknown[][]> {
    return (await this.target().query(this.query.sql, this.params(placeholderValues), "arrays")).rows;
  }

  isResponseInArrayMode(): boolean {
    return this.arrayMode;
  }
}
