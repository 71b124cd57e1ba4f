import { getTableName, inArray, lt, Placeholder, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { changedRows } from "./changes.ts";
import type { Db } from "./client.ts";

/** One step of a purge: deletes at most `limit` of the rows due at `now`, and answers how many it deleted. */
export type PurgeStep = ((now: number, limit: number) => Promise<number>) & {
  /** How SQLite finds the rows (EXPLAIN QUERY PLAN): through an index, not by reading the whole table (a test holds every purge to it). */
  readonly plan?: () => { table: string; steps: string[] };
};

/**
 * A purge step over `table`: the rows `due(cutoff)` holds for, `cutoff` being `now - keepMs`, deleted
 * a batch at a time (`DELETE ... WHERE rowid IN (SELECT rowid ... LIMIT n)`), so one step costs what
 * it deletes, and finding nothing due costs one index probe. Prepared on first use.
 */
export function deleteDue(db: Db, table: SQLiteTable, due: (cutoff: Placeholder) => SQL | undefined, keepMs = 0): PurgeStep {
  const p = sql.placeholder;
  // The row's own address: SQLite's rowid, PostgreSQL's ctid (which stays put within the statement).
  const rowAddress = db.$dialect === "postgres" ? sql`ctid` : sql`rowid`;
  const select = () =>
    db
      .select({ rowid: rowAddress })
      .from(table)
      .where(due(p("cutoff")))
      .limit(p("limit"));
  let statement: { run(values: Record<string, unknown>): unknown } | null = null;
  const step = async (now: number, limit: number) => {
    statement ??= db.delete(table).where(inArray(rowAddress, select())).prepare();
    return changedRows(await statement.run({ cutoff: now - keepMs, limit }));
  };
  const plan = () => {
    const query = select().toSQL();
    const params = query.params.map((v) => (v instanceof Placeholder ? (v.name === "limit" ? 1 : 0) : v)) as (string | number)[];
    const rows = db.$client.query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${query.sql}`).all(...params);
    return { table: getTableName(table), steps: rows.map((r) => r.detail) };
  };
  return Object.assign(step, { plan });
}

/** The usual purge step: the rows whose `column` (an expiry, an end) is before `now - keepMs`. */
export const deleteBefore = (db: Db, table: SQLiteTable, column: SQLiteColumn, keepMs = 0): PurgeStep =>
  deleteDue(db, table, (cutoff) => lt(column, cutoff), keepMs);
