import { createHash } from "node:crypto";
import { embedFolder } from "../../shared/embed.macro.ts" with { type: "macro" };

/**
 * The PostgreSQL migrations in `migrations-pg/`, carried inside the executable (as the SQLite
 * ones are, db/migrations.ts): the SQL files and the journal that orders them.
 */
const FILES: Record<string, string> = embedFolder("migrations-pg", "(\\.sql|^journal\\.json)$");

export type PgMigration = { tag: string; sql: string; hash: string };

function text(name: string): string {
  const b64 = FILES[name];
  if (b64 === undefined) throw new Error(`PostgreSQL migration file ${name} is missing from the build`);
  return Buffer.from(b64, "base64").toString("utf8");
}

/** The migrations in journal order (migrations-pg/README.md). */
export function bundledPgMigrations(): PgMigration[] {
  const journal = JSON.parse(text("journal.json")) as { migrations: string[] };
  return journal.migrations.map((tag) => {
    const sql = text(`${tag}.sql`);
    return { tag, sql, hash: createHash("sha256").update(sql).digest("hex") };
  });
}

/** The database was migrated by a Cairn this one is not (newer, or with other migrations): starting could corrupt it. */
export class MigrationHistoryError extends Error {
  override name = "MigrationHistoryError";
}

/** One key for every Cairn sharing the database; other advisory locks hash their own names the same way. */
const LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('cairn:migrations', 0))";

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "__cairn_migrations" (
  "tag" text COLLATE "C" PRIMARY KEY,
  "hash" text NOT NULL,
  "applied_at" bigint NOT NULL
)`;

/** What the database has that this binary lacks, or has in another version; none: it may go on. */
function historyProblems(applied: { tag: string; hash: string }[], migrations: PgMigration[]): string[] {
  const known = new Map(migrations.map((m, i) => [m.tag, { ...m, position: i }]));
  const problems = applied.flatMap(({ tag, hash }) => {
    const mine = known.get(tag);
    if (!mine) return [`${tag} was applied by another Cairn (a newer one?) and is unknown to this one`];
    return mine.hash === hash ? [] : [`${tag} was applied from another text than this Cairn's`];
  });
  const last = Math.max(-1, ...applied.map((a) => known.get(a.tag)?.position ?? -1));
  const skipped = migrations.slice(0, last + 1).filter((m) => !applied.some((a) => a.tag === m.tag));
  return [...problems, ...skipped.map((m) => `${m.tag} is missing, yet a later migration was applied`)];
}

/**
 * Applies the PostgreSQL migrations not yet applied, in order, in one transaction. Several Cairns
 * starting together: each waits for a transaction-scoped advisory lock (released by the commit,
 * or by the connection's end if the process dies), so one migrates and the others then find
 * nothing left to do. READ COMMITTED, so a waiter's reads after the lock see what the first
 * committed. The applied tags go in `__cairn_migrations`; a database with migrations this Cairn
 * does not know refuses it (MigrationHistoryError). Returns the tags applied now.
 */
export async function migratePostgres(sql: Bun.SQL, migrations: PgMigration[] = bundledPgMigrations(), now = Date.now): Promise<string[]> {
  return await sql.begin("isolation level read committed", (tx) => migrateInTransaction(tx, migrations, now));
}

/**
 * migratePostgres's work inside a READ COMMITTED transaction the caller holds, and commits or rolls
 * back (cairn migrate-to-postgres: the schema and the copied rows land together, or not at all).
 */
export async function migrateInTransaction(tx: Bun.SQL, migrations: PgMigration[] = bundledPgMigrations(), now = Date.now): Promise<string[]> {
  await tx.unsafe(LOCK);
  await tx.unsafe(BOOKKEEPING);
  const applied: { tag: string; hash: string }[] = await tx.unsafe(`SELECT "tag", "hash" FROM "__cairn_migrations"`);
  const problems = historyProblems(applied, migrations);
  if (problems.length > 0) throw new MigrationHistoryError(`refusing this PostgreSQL database: ${problems.join("; ")}`);
  const pending = migrations.filter((m) => !applied.some((a) => a.tag === m.tag));
  for (const m of pending) {
    // No parameters: the simple protocol, which runs a file of several statements at once.
    await tx.unsafe(m.sql);
    await tx.unsafe(`INSERT INTO "__cairn_migrations" ("tag", "hash", "applied_at") VALUES ($1, $2, $3)`, [m.tag, m.hash, now()]);
  }
  return pending.map((m) => m.tag);
}
