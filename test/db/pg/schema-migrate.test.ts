import { describe, expect, it } from "bun:test";
import { bundledPgMigrations, MigrationHistoryError, type PgMigration, migratePostgres } from "../../../src/db/pg/migrate.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { waitFor } from "../../helpers/wait.ts";
import { usePgDatabases } from "./schema-database.ts";

const ALL = ["0000_baseline", "0001_triggers", "0002_docs_search", "0003_integer_keys", "0004_cluster", "0005_docs_search_unaccent"];

describe.skipIf(pgSkipReason !== null)("migratePostgres", () => {
  const pg = usePgDatabases();
  const appliedTags = async (sql: Bun.SQL) => (await sql`SELECT tag FROM __cairn_migrations ORDER BY tag`).map((r: { tag: string }) => r.tag);
  const relationCount = async (sql: Bun.SQL) =>
    Number((await sql`SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`)[0].n);

  it("applies the baseline, the triggers and the docs search to an empty database", async () => {
    const { sql } = await pg.database();
    expect(await migratePostgres(sql)).toEqual(ALL);
    expect(await appliedTags(sql)).toEqual(ALL);
    expect((await sql`SELECT name FROM cache_versions ORDER BY name`).map((r: { name: string }) => r.name)).toEqual([
      "access_tokens",
      "forward_auth_rules",
      "forward_auth_sessions",
      "oauth_clients",
      "signing_keys",
    ]);
  });

  it("applies nothing the second time", async () => {
    const { sql } = await pg.database();
    await migratePostgres(sql);
    const relations = await relationCount(sql);
    expect(await migratePostgres(sql)).toEqual([]);
    expect(await relationCount(sql)).toBe(relations);
    expect(await appliedTags(sql)).toEqual(ALL);
  });

  it("lets one of two Cairns starting together migrate; the other waits, then finds nothing to do", async () => {
    const { url, sql } = await pg.database();
    // Hold the migrations' lock, so both are seen waiting before either can go on.
    const holder = await sql.reserve();
    await holder.unsafe("BEGIN");
    await holder.unsafe("SELECT pg_advisory_xact_lock(hashtextextended('cairn:migrations', 0))");
    const both = Promise.all([migratePostgres(pg.pool(url)), migratePostgres(pg.pool(url))]);
    await waitFor(async () => Number((await sql`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)[0].n) === 2, {
      what: "both migrations waiting for the lock",
      timeoutMs: 10_000,
    });
    await holder.unsafe("COMMIT");
    holder.release();
    const results = await both;
    expect(results.map((tags) => tags.length).sort()).toEqual([0, ALL.length]);
    expect(await appliedTags(sql)).toEqual(ALL);
  });

  it("refuses a database a newer Cairn migrated, and changes nothing", async () => {
    const { sql } = await pg.database();
    await migratePostgres(sql, bundledPgMigrations().slice(0, 1));
    await sql`INSERT INTO __cairn_migrations (tag, hash, applied_at) VALUES ('0099_from_the_future', 'x', 0)`;
    await expect(migratePostgres(sql)).rejects.toThrow(MigrationHistoryError);
    await expect(migratePostgres(sql)).rejects.toThrow("0099_from_the_future was applied by another Cairn (a newer one?) and is unknown to this one");
    expect(await appliedTags(sql)).toEqual(["0000_baseline", "0099_from_the_future"]);
  });

  it("refuses a database where a migration was applied from another text", async () => {
    const { sql } = await pg.database();
    const [baseline] = bundledPgMigrations() as [PgMigration];
    await migratePostgres(sql, [{ ...baseline, hash: "an older text" }]);
    await expect(migratePostgres(sql)).rejects.toThrow("0000_baseline was applied from another text than this Cairn's");
  });

  it("leaves nothing behind when a migration fails", async () => {
    const { sql } = await pg.database();
    const [baseline] = bundledPgMigrations() as [PgMigration];
    const broken = { tag: "0001_broken", sql: "CREATE TABLE nowhere (", hash: "h" };
    await expect(migratePostgres(sql, [baseline, broken])).rejects.toThrow("syntax error");
    expect(await relationCount(sql)).toBe(0);
  });
});
