import type { Db } from "../client.ts";
import { openPostgres, type PgOptions } from "./client.ts";
import { postgresDatabase } from "./database.ts";
import { classifyError, DatabaseUnavailableError } from "./errors.ts";
import { migratePostgres } from "./migrate.ts";

export type PostgresStore = Db & { $pg: ReturnType<typeof openPostgres> };

/**
 * Brings the PostgreSQL database to this binary's schema: one instance migrates, the others wait
 * on the lock and then find nothing to do (db/pg/migrate.ts). A connection of its own, without the
 * client's query deadline: a long migration is not a stuck query. Returns the tags applied.
 */
export async function migrateDatabase(url: string): Promise<string[]> {
  const migrator = new Bun.SQL(url, { max: 1, connectionTimeout: 5 });
  try {
    return await migratePostgres(migrator);
  } catch (e) {
    throw classifyError(e);
  } finally {
    await migrator.close().catch(() => {});
  }
}

/**
 * The application's database on PostgreSQL, migrated. While the server cannot be reached the
 * start waits for it, saying so every `retryMs` through `waiting` (a platform that starts the
 * database and Cairn together starts them in any order), unless `wait` is false.
 */
export async function openPostgresStore(
  url: string,
  { wait = true, retryMs = 2000, waiting = (_e: Error) => {}, ...options }: PgOptions & { wait?: boolean; retryMs?: number; waiting?: (e: Error) => void } = {},
): Promise<PostgresStore> {
  for (;;) {
    try {
      await migrateDatabase(url);
      break;
    } catch (e) {
      if (!wait || !(e instanceof DatabaseUnavailableError)) throw e;
      waiting(e);
      await Bun.sleep(retryMs);
    }
  }
  return postgresDatabase(openPostgres(url, options));
}
