import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bundledPgMigrations } from "../../src/db/pg/migrate.ts";
import { cli } from "../helpers/cli.ts";
import { TEST_PG_SECRET } from "../helpers/pg-store.ts";
import { type PgCluster, pgSkipReason, startPostgres } from "../helpers/postgres.ts";
import { tempDir } from "../helpers/temp.ts";

// Issue 46: the maintenance commands with CAIRN_DATABASE_URL set act on PostgreSQL, never on a
// SQLite file in the data folder: `migrate` migrates the database, `backup` points to pg_dump.
describe.skipIf(pgSkipReason !== null)("issue 46: cairn's commands on PostgreSQL", () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = (await startPostgres()) as PgCluster;
  });
  afterAll(() => cluster?.close());

  const envFor = (url: string) => ({ CAIRN_DATABASE_URL: url, CAIRN_SECRET: TEST_PG_SECRET, CAIRN_DATA: tempDir() });

  it("cairn migrate applies every PostgreSQL migration, says which, and then that the database is up to date", async () => {
    const url = await cluster.createDatabase();
    const env = envFor(url);
    const tags = bundledPgMigrations().map((m) => m.tag);
    const first = cli(["migrate"], env);
    expect([first.code, first.stdout, first.stderr]).toEqual([0, `applied ${tags.join(", ")}\n`, ""]);
    const db = new Bun.SQL(url, { max: 1 });
    try {
      const applied = (await db.unsafe(`SELECT "tag" FROM "__cairn_migrations" ORDER BY "tag"`)) as { tag: string }[];
      expect(applied.map((r) => r.tag)).toEqual([...tags].sort());
      // The application's tables are there, empty.
      expect(await db.unsafe(`SELECT count(*)::int AS n FROM "users"`)).toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
    const again = cli(["migrate"], env);
    expect([again.code, again.stdout]).toEqual([0, "database is up to date\n"]);
    // Nothing was made for SQLite.
    expect(existsSync(join(env.CAIRN_DATA, "cairn.db"))).toBe(false);
  });

  it("cairn migrate says the database did not answer, and exits 1, when the server is down", async () => {
    const url = await cluster.createDatabase();
    await cluster.stop("immediate");
    try {
      const down = cli(["migrate"], envFor(url));
      expect(down.code).toBe(1);
      expect(down.stderr).toStartWith("cairn: migration failed: database unavailable");
    } finally {
      await cluster.start();
    }
  });

  it("cairn backup refuses, pointing to pg_dump and CAIRN_SECRET, and writes nothing", async () => {
    const env = envFor(await cluster.createDatabase());
    const target = join(tempDir(), "cairn-backup.db");
    const run = cli(["backup", target], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      'cairn: cairn backup copies the SQLite file; this instance runs on PostgreSQL (CAIRN_DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=cairn.dump "$CAIRN_DATABASE_URL", and keep CAIRN_SECRET with it (README, PostgreSQL)\n',
    );
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(env.CAIRN_DATA, "cairn.db"))).toBe(false);
  });
});
