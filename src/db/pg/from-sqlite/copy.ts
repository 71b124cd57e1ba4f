import type { Database } from "bun:sqlite";
import { bundledPgMigrations, migrateInTransaction } from "../migrate.ts";
import { MoveError } from "./source.ts";
import { type CopyTable, copyPlan, quote, readOrder } from "./tables.ts";
import { type SqliteValue, toPostgres } from "./values.ts";

/** Rows per INSERT; fewer for a wide table, as one statement binds at most 65,535 parameters. */
const BATCH_ROWS = 1000;
const MAX_PARAMETERS = 65_535;

export type TableCount = { table: string; rows: number };

/**
 * Every relation of schema public (tables, views, sequences, ...) but an extension's (a platform
 * may install pg_stat_statements there): a database with any is not empty.
 */
const RELATIONS = `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
  AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
ORDER BY c.relname`;

/** Refuses a database that already holds anything in schema public, changing nothing there. */
async function assertEmpty(tx: Bun.SQL): Promise<void> {
  const names = ((await tx.unsafe(RELATIONS)) as { name: string }[]).map((r) => r.name);
  if (names.length === 0) return;
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? `, ... (${names.length} in all)` : "");
  throw new MoveError(
    `the PostgreSQL database is not empty (schema public holds ${shown}): migrate-to-postgres copies into an empty database only; create a new one and give its URL`,
  );
}

function insertStatement(table: CopyTable, rows: number): string {
  const width = table.columns.length;
  const tuples = Array.from({ length: rows }, (_, r) => `(${table.columns.map((_, c) => `$${r * width + c + 1}`).join(", ")})`);
  return `INSERT INTO ${quote(table.name)} (${table.columns.map((c) => quote(c.name)).join(", ")}) VALUES ${tuples.join(", ")}`;
}

/** Reads the table from SQLite (streamed: a statement of its own) and inserts its rows in batches; answers how many. */
async function copyTable(tx: Bun.SQL, sqlite: Database, table: CopyTable): Promise<number> {
  const perBatch = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)));
  const read = sqlite.prepare<Record<string, SqliteValue>, []>(readOrder(table)).safeIntegers(true);
  let batch: SqliteValue[] = [];
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.unsafe(insertStatement(table, batch.length / table.columns.length), batch);
    batch = [];
  };
  try {
    for (const row of read.iterate()) {
      rows++;
      for (const { name, type } of table.columns) batch.push(toPostgres(row[name] ?? null, type, () => `${table.name}.${name} (row ${rows} read)`));
      if (batch.length >= perBatch * table.columns.length) await flush();
    }
    await flush();
  } finally {
    read.finalize();
  }
  return rows;
}

/** The highest id SQLite gave each AUTOINCREMENT table, deleted rows included. */
function autoincrements(sqlite: Database): Map<string, bigint> {
  if (!sqlite.query("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get()) return new Map();
  const read = sqlite.prepare<{ name: string; seq: bigint }, []>("SELECT name, seq FROM sqlite_sequence").safeIntegers(true);
  try {
    return new Map(read.all().map((r) => [r.name, r.seq]));
  } finally {
    read.finalize();
  }
}

/**
 * Identity columns continue after the copied rows: past the highest value, and for an
 * AUTOINCREMENT key past the highest SQLite ever gave, so a deleted row's id is not given again,
 * as SQLite would not give it.
 */
async function continueIdentities(tx: Bun.SQL, table: CopyTable, given: bigint): Promise<void> {
  for (const column of table.columns.filter((c) => c.identity)) {
    const [{ max }] = (await tx.unsafe(`SELECT max(${quote(column.name)}) AS max FROM ${quote(table.name)}`)) as [{ max: bigint | null }];
    // sqlite_sequence counts the INTEGER PRIMARY KEY, never the added rowid columns.
    const floor = column.name === "rowid" ? 0n : given;
    const last = max === null || max < floor ? floor : max;
    if (last > 0n) await tx.unsafe("SELECT setval(pg_get_serial_sequence($1, $2), $3)", [quote(table.name), column.name, last]);
  }
}

/**
 * The copy, in one transaction: refuse a database that is not empty, create the schema
 * (migrateInTransaction), then fill every table, parents first. The triggers that keep derived
 * values (cache versions, each set's list version and counts: migrations-pg/0001_triggers.sql) are
 * off meanwhile, since those values are copied as they are; ALTER TABLE, which the tables' owner
 * (who just made them) may do, where session_replication_role would need a superuser. Rows the
 * migrations put in (cache_versions' names) give way to the source's. Nothing is visible to anyone
 * before the commit, and a failure anywhere leaves the database as empty as it was.
 */
export async function copyIntoPostgres(
  pg: Bun.SQL,
  sqlite: Database,
  onTable: (count: TableCount) => void = () => {},
): Promise<{ tables: CopyTable[]; counts: TableCount[] }> {
  // READ COMMITTED, as migrateInTransaction needs whatever the server's default.
  return await pg.begin("isolation level read committed", async (tx) => {
    await assertEmpty(tx);
    const migrations = bundledPgMigrations();
    const applied = await migrateInTransaction(tx, migrations);
    // Another Cairn may have migrated it between the check and migrateInTransaction's lock.
    if (applied.length !== migrations.length) throw new MoveError("another Cairn started on the PostgreSQL database meanwhile: it is no longer empty");
    const tables = await copyPlan(tx, sqlite);
    const triggered: { name: string }[] = await tx.unsafe(
      `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE NOT t.tgisinternal AND n.nspname = 'public'`,
    );
    for (const { name } of triggered) await tx.unsafe(`ALTER TABLE ${quote(name)} DISABLE TRIGGER USER`);
    const counts: TableCount[] = [];
    const sequences = autoincrements(sqlite);
    for (const table of tables) {
      // Empty, but for the rows the migrations put in (cache_versions' names): the source's replace them.
      await tx.unsafe(`DELETE FROM ${quote(table.name)}`);
      const rows = await copyTable(tx, sqlite, table).catch((e: unknown) => {
        if (e instanceof MoveError) throw e;
        throw new MoveError(`copying ${table.name} failed: ${(e as Error).message}`);
      });
      await continueIdentities(tx, table, sequences.get(table.name) ?? 0n);
      counts.push({ table: table.name, rows });
      onTable({ table: table.name, rows });
    }
    for (const { name } of triggered) await tx.unsafe(`ALTER TABLE ${quote(name)} ENABLE TRIGGER USER`);
    return { tables, counts };
  });
}
