import type { Database } from "bun:sqlite";
import { bundledMigrations, type Migration } from "../../migrations.ts";

/** `cairn migrate-to-postgres` cannot go on; the message is the one line an operator needs (what is wrong, and the fix). */
export class MoveError extends Error {
  override name = "MoveError";
}

/**
 * Holds the SQLite file for this connection alone until it closes: exclusive locking mode keeps
 * the lock past the transaction's end, and WAL mode grants it only while no other connection has
 * the file open. So a Cairn still serving (even idle), a backup or a second copy is refused
 * instead of writing behind the copy's back, and none can open the file until the copy is done.
 */
export function lockSource(sqlite: Database, file: string): void {
  try {
    sqlite.run("PRAGMA locking_mode = EXCLUSIVE");
    sqlite.run("BEGIN EXCLUSIVE");
    // The lock is taken by the first read.
    sqlite.query("SELECT count(*) FROM sqlite_master").get();
  } catch (e) {
    if (!String((e as { code?: unknown }).code).startsWith("SQLITE_BUSY")) throw e;
    throw new MoveError(`${file} is open in another process (is Cairn running?): stop Cairn, then run cairn migrate-to-postgres again`);
  }
}

/** Lets go of the lock lockSource took: the transaction ends (it wrote nothing) and the connection may close. */
export function releaseSource(sqlite: Database): void {
  if (sqlite.inTransaction) sqlite.run("ROLLBACK");
}

/**
 * Refuses a SQLite database that is not at this Cairn's last migration: the PostgreSQL schema is
 * that migration's, so every table and column must be there as this Cairn knows them. Reads the
 * bookkeeping as applyMigrations (db/migrate.ts) does: the last migration's journal time.
 */
export function assertLatestMigration(sqlite: Database, migrations: Migration[] = bundledMigrations()): void {
  const bookkeeping = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  const last = bookkeeping ? Number((sqlite.query(`SELECT max(created_at) AS at FROM "__drizzle_migrations"`).get() as { at: number | null }).at ?? 0) : 0;
  const pending = migrations.filter((m) => m.when > last);
  if (pending.length > 0)
    throw new MoveError(
      `the SQLite database lacks ${pending.length} of this Cairn's migrations (${pending.at(-1)?.tag} the last): run cairn migrate first, then this again`,
    );
  if (last > (migrations.at(-1)?.when ?? 0))
    throw new MoveError("the SQLite database was migrated by a newer Cairn than this one: run that version's cairn migrate-to-postgres");
}
