import type { Database } from "bun:sqlite";
import { afterAll, beforeAll } from "bun:test";
import { SQL } from "bun";
import { type MigratedSchema, migratedDatabase, migratedSchema } from "../../../src/build/pg-schema/migrated.ts";
import { migratePostgres } from "../../../src/db/pg/migrate.ts";
import { type PgCluster, startPostgres } from "../../helpers/postgres.ts";

/**
 * This file's cluster, started before its tests and removed after them, with what the schema
 * tests open on it, closed after them too. Call at the top of a
 * `describe.skipIf(pgSkipReason !== null)` block.
 */
export function usePgDatabases() {
  const opened: { close(): unknown }[] = [];
  let cluster: PgCluster | null = null;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
    await cluster?.close();
  });
  const pool = (url: string) => {
    const sql = new SQL(url);
    opened.push(sql);
    return sql;
  };
  /** A new empty database: its URL, and a Bun.SQL pool on it (what migratePostgres takes). */
  const database = async (): Promise<{ url: string; sql: SQL }> => {
    if (!cluster) throw new Error("no cluster: call inside describe.skipIf(pgSkipReason !== null)");
    const url = await cluster.createDatabase();
    return { url, sql: pool(url) };
  };
  return {
    database,
    pool,
    /** The same schema on both stores: a migrated PostgreSQL database, and a migrated SQLite one with what it holds read. */
    async migratedPair(): Promise<{ sql: SQL; sqlite: Database; schema: MigratedSchema }> {
      const { sql } = await database();
      await migratePostgres(sql);
      const sqlite = migratedDatabase();
      const schema = migratedSchema(sqlite);
      opened.push(schema);
      return { sql, sqlite, schema };
    },
  };
}
