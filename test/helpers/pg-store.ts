import { migrateDatabase } from "../../src/db/pg/open.ts";
import { type PgCluster, pgSkipReason, startPostgres } from "./postgres.ts";

/**
 * Which store the API tests run on: `CAIRN_TEST_STORE=postgres` (npm run test:pg) runs them on
 * PostgreSQL, each app on a database of its own in one cluster this test process starts; by
 * default, on a SQLite file.
 */
export const onPostgres = process.env.CAIRN_TEST_STORE === "postgres";

/** The secret every PostgreSQL test instance seals with (CAIRN_DATABASE_URL requires one). */
export const TEST_PG_SECRET = "cairn-test-secret-for-postgresql-instances-0123456789";

type Shared = { cluster: PgCluster; admin: Bun.SQL; base: string };
let shared: Promise<Shared> | null = null;
let made = 0;

/** The cluster, and a template database migrated once: each test database is a copy of it (a fraction of a second, not a migration). */
function sharedCluster(): Promise<Shared> {
  shared ??= (async () => {
    const cluster = await startPostgres();
    if (!cluster) throw new Error(`CAIRN_TEST_STORE=postgres, but ${pgSkipReason}`);
    const template = await cluster.createDatabase("cairn_template");
    await migrateDatabase(template);
    const base = template.slice(0, template.lastIndexOf("/"));
    const admin = new Bun.SQL(`${base}/postgres`, { max: 1 });
    process.once("beforeExit", () => void cluster.close());
    return { cluster, admin, base };
  })();
  return shared;
}

/** A new database at the current schema, for one app; its postgres:// URL. */
export async function freshPostgresUrl(): Promise<string> {
  const { admin, base } = await sharedCluster();
  const name = `cairn_${process.pid}_${++made}`;
  await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "cairn_template"`);
  return `${base}/${name}`;
}

/** Databases by the data folder the test gave the app: a restart on the same folder finds the same database. */
const byDataDir = new Map<string, string>();

/** The environment an app on `dataDir` gets on the store under test: nothing for SQLite. */
export async function storeEnv(dataDir: string, env: Record<string, string>): Promise<Record<string, string>> {
  if (!onPostgres || env.CAIRN_DATABASE_URL) return {};
  let url = byDataDir.get(dataDir);
  if (!url) {
    url = await freshPostgresUrl();
    byDataDir.set(dataDir, url);
  }
  return { CAIRN_DATABASE_URL: url, ...(env.CAIRN_SECRET ? {} : { CAIRN_SECRET: TEST_PG_SECRET }) };
}
