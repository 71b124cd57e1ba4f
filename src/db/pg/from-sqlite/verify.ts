import type { Database } from "bun:sqlite";
import type { TableCount } from "./copy.ts";
import { MoveError } from "./source.ts";
import { type CopyTable, quote } from "./tables.ts";
import { canonical, rowHash, type SqliteValue } from "./values.ts";

/** Rows per table compared value by value. */
export const SAMPLE_ROWS = 100;

function sqliteRows(sqlite: Database, sql: string): SqliteValue[][] {
  const read = sqlite.prepare<SqliteValue[], []>(sql).safeIntegers(true);
  try {
    return read.values() as SqliteValue[][];
  } finally {
    read.finalize();
  }
}

/** A sample of the table's rows, chosen at random in SQLite, each compared with its row in PostgreSQL (found by primary key) by the hash of its values. */
async function compareSample(pg: Bun.SQL, sqlite: Database, table: CopyTable): Promise<string | null> {
  const names = table.columns.map((c) => c.name);
  const list = names.map(quote).join(", ");
  const sample = sqliteRows(
    sqlite,
    `SELECT ${table.columns.map((c) => c.source).join(", ")} FROM ${quote(table.name)} AS src ORDER BY random() LIMIT ${SAMPLE_ROWS}`,
  );
  if (sample.length === 0) return null;
  const keyAt = table.primaryKey.map((k) => names.indexOf(k));
  const keyOf = (row: readonly unknown[]) => keyAt.map((i) => canonical(row[i])).join("|");
  const tuples = sample.map((_, r) => `(${keyAt.map((_, k) => `$${r * keyAt.length + k + 1}`).join(", ")})`);
  const copied = (await pg
    .unsafe(
      `SELECT ${list} FROM ${quote(table.name)} WHERE (${table.primaryKey.map(quote).join(", ")}) IN (${tuples.join(", ")})`,
      sample.flatMap((row) => keyAt.map((i) => row[i])),
    )
    .values()) as unknown[][];
  const hashes = new Map(copied.map((row) => [keyOf(row), rowHash(row)]));
  const differing = sample.filter((row) => hashes.get(keyOf(row)) !== rowHash(row));
  if (differing.length === 0) return null;
  const first = keyAt.map((i) => `${names[i]}=${String(differing[0]?.[i])}`).join(", ");
  return `${table.name}: ${differing.length} of ${sample.length} sampled rows differ or are missing (the first: ${first})`;
}

/**
 * After the commit, what PostgreSQL holds against the SQLite file (still locked, so unchanged): the
 * row count of every table, and a sample of rows per table value by value. Throws MoveError
 * naming every difference.
 */
export async function verifyCopy(pg: Bun.SQL, sqlite: Database, tables: CopyTable[], counts: TableCount[]): Promise<number> {
  const problems: string[] = [];
  let rows = 0;
  for (const table of tables) {
    const [{ n }] = (await pg.unsafe(`SELECT count(*) AS n FROM ${quote(table.name)}`)) as [{ n: bigint }];
    const source = Number((sqlite.query(`SELECT count(*) AS n FROM ${quote(table.name)}`).get() as { n: number }).n);
    const copied = counts.find((c) => c.table === table.name)?.rows;
    if (Number(n) !== source || copied !== source) problems.push(`${table.name}: ${source} rows in SQLite, ${copied} copied, ${n} in PostgreSQL`);
    else rows += source;
    const sample = await compareSample(pg, sqlite, table);
    if (sample) problems.push(sample);
  }
  if (problems.length > 0) throw new MoveError(`verification failed: ${problems.join("; ")}`);
  return rows;
}
