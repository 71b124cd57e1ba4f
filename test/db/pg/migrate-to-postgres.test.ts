import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, it } from "bun:test";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations } from "../../../src/db/migrate.ts";
import { bundledMigrations } from "../../../src/db/migrations.ts";
import { copyIntoPostgres } from "../../../src/db/pg/from-sqlite/copy.ts";
import { openSealedValues, SEALED_COLUMNS } from "../../../src/db/pg/from-sqlite/sealed.ts";
import { MoveError } from "../../../src/db/pg/from-sqlite/source.ts";
import { toPostgres } from "../../../src/db/pg/from-sqlite/values.ts";
import { verifyCopy } from "../../../src/db/pg/from-sqlite/verify.ts";
import { createSecretBox } from "../../../src/shared/crypto.ts";
import { cli } from "../../helpers/cli.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { tempDir } from "../../helpers/temp.ts";
import { failure, usePostgres } from "./fixture.ts";

const FIXTURE = join(import.meta.dir, "sqlite-instance.fixture.ts");

type Instance = { dataDir: string; teamId: string; sets: string[]; shareLink: string };

/** A SQLite instance made and stopped by the app in a process of its own (sqlite-instance.fixture.ts). */
async function makeInstance(): Promise<Instance> {
  const dataDir = tempDir();
  const proc = Bun.spawn([process.execPath, FIXTURE], { env: { ...process.env, CAIRN_DATA: dataDir }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const line = out.split("\n").find((l) => l.startsWith("INSTANCE "));
  if (code !== 0 || !line) throw new Error(`the fixture failed (${code}):\n${out}\n${err}`);
  return { dataDir, ...JSON.parse(line.slice("INSTANCE ".length)) };
}

/** A copy of the instance's data folder, to change without touching the original. */
function copyOf(instance: Instance): string {
  const dir = tempDir();
  cpSync(instance.dataDir, dir, { recursive: true });
  return dir;
}

/** Reads the instance's SQLite file (integers as bigint: exact) and closes it. */
function readSqlite<T>(dataDir: string, read: (sqlite: Database) => T): T {
  const sqlite = new Database(join(dataDir, "cairn.db"), { readwrite: true, safeIntegers: true });
  try {
    return read(sqlite);
  } finally {
    sqlite.close();
  }
}

/** A connection to `url` reading int8 as bigint, closed after `use`. */
async function withPg<T>(url: string, use: (sql: Bun.SQL) => Promise<T>): Promise<T> {
  const sql = new Bun.SQL(url, { max: 1, bigint: true });
  try {
    return await use(sql);
  } finally {
    await sql.close();
  }
}

const relations = (url: string) =>
  withPg(url, async (sql) =>
    (
      (await sql.unsafe("SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 1")) as {
        name: string;
      }[]
    ).map((r) => r.name),
  );

const sqliteTables = (sqlite: Database) =>
  sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite%' AND name <> '__drizzle_migrations'",
    )
    .all()
    .map((t) => t.name);

describe.skipIf(pgSkipReason !== null)("issue 46: cairn migrate-to-postgres URL", () => {
  const pg = usePostgres();
  let instance: Instance;
  let run: ReturnType<typeof cli>;
  beforeAll(async () => {
    instance = await makeInstance();
    run = cli(["migrate-to-postgres", pg.url], { CAIRN_DATA: instance.dataDir });
  }, 120_000);

  it("copies every table of a stopped SQLite instance, prints one line per table, and says what the instances need", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const tables = readSqlite(instance.dataDir, sqliteTables);
    const counts = readSqlite(instance.dataDir, (sqlite) =>
      tables.map((t) => [t, Number((sqlite.query(`SELECT count(*) AS n FROM "${t}"`).get() as { n: bigint }).n)] as const),
    );
    for (const [table, rows] of counts) expect(run.stdout).toMatch(new RegExp(`^  ${table} +${rows}$`, "m"));
    const total = counts.reduce((sum, [, rows]) => sum + rows, 0);
    const verified = run.stdout.match(/^verified: (\d+) tables, (\d+) rows, (\d+) sealed values opened$/m);
    expect(verified?.slice(1, 3)).toEqual([String(tables.length), String(total)]);
    // The instance check, signing keys, the TOTP secret, the share link, the workspace's IdP tokens.
    expect(Number(verified?.[3])).toBeGreaterThanOrEqual(6);
    // The instance ran with a generated secret.key: the instances on PostgreSQL need its value,
    // named by its file, never printed.
    const key = readFileSync(join(instance.dataDir, "secret.key"), "utf8").trim();
    expect(run.stdout).toContain(`\n       CAIRN_SECRET=$(cat ${join(instance.dataDir, "secret.key")})\n`);
    expect(run.stdout).not.toContain(key);
    expect(run.stdout).toContain(`CAIRN_DATABASE_URL=${pg.url}\n`);
  });

  it("PostgreSQL holds every row, with the derived values (counts, list and cache versions) and row ids as SQLite had them", async () => {
    const fromSqlite = readSqlite(instance.dataDir, (sqlite) => ({
      tables: sqliteTables(sqlite).map((t) => [t, (sqlite.query(`SELECT count(*) AS n FROM "${t}"`).get() as { n: bigint }).n] as const),
      sets: sqlite.query("SELECT id, list_version, top_total, top_completed FROM todo_sets ORDER BY id").all(),
      versions: sqlite.query("SELECT name, version FROM cache_versions ORDER BY name").all(),
      rowids: sqlite.query("SELECT id, rowid FROM todos ORDER BY id").all(),
      search: sqlite.query("SELECT rowid, source_id, locale, path, title FROM docs_search ORDER BY rowid").all(),
    }));
    await withPg(pg.url, async (sql) => {
      for (const [table, rows] of fromSqlite.tables) expect([table, (await sql.unsafe(`SELECT count(*) AS n FROM "${table}"`))[0].n]).toEqual([table, rows]);
      expect([...(await sql.unsafe("SELECT id, list_version, top_total, top_completed FROM todo_sets ORDER BY id"))]).toEqual(fromSqlite.sets);
      // SQLite's versions are random 64-bit integers: copied exactly, not bumped by the copy's inserts.
      expect([...(await sql.unsafe("SELECT name, version FROM cache_versions ORDER BY name"))]).toEqual(fromSqlite.versions);
      expect([...(await sql.unsafe("SELECT id, rowid FROM todos ORDER BY id"))]).toEqual(fromSqlite.rowids);
      expect([...(await sql.unsafe("SELECT rowid, source_id, locale, path, title FROM docs_search ORDER BY rowid"))]).toEqual(fromSqlite.search);
      expect(fromSqlite.search.length).toBeGreaterThan(0);
      // The full-text column PostgreSQL makes from the copied text finds the guide's backup page.
      expect((await sql.unsafe("SELECT path FROM docs_search WHERE document @@ to_tsquery('simple', 'backup')")).length).toBeGreaterThan(0);
    });
  });

  it("leaves the triggers on and the identity columns past the copied rows: the next write counts as on SQLite", async () => {
    await withPg(pg.url, async (sql) => {
      expect([...(await sql.unsafe("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'O'"))]).toEqual([]);
      const identities: { table: string; column: string }[] = await sql.unsafe(
        "SELECT c.relname AS table, a.attname AS column FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND a.attidentity <> ''",
      );
      expect(identities.map((i) => `${i.table}.${i.column}`)).toContain("todos.rowid");
      for (const { table, column } of identities) {
        const [{ max }] = await sql.unsafe(`SELECT max("${column}") AS max FROM "${table}"`);
        const [{ next }] = await sql.unsafe(`SELECT last_value + (CASE WHEN is_called THEN 1 ELSE 0 END) AS next FROM ${await sequenceOf(sql, table, column)}`);
        if (max !== null) expect([table, next > max]).toEqual([table, true]);
      }
      const [groceries] = instance.sets;
      const [before] = await sql.unsafe("SELECT list_version, top_total, top_completed FROM todo_sets WHERE id = $1", [groceries]);
      const [{ rowid }] = await sql.unsafe(
        `INSERT INTO todos (id, set_id, team_id, user_id, title, completed, sort_order, created_at, updated_at)
         SELECT 'after-copy', set_id, team_id, user_id, 'Bread', 1, 99, 1, 1 FROM todos WHERE set_id = $1 LIMIT 1 RETURNING rowid`,
        [groceries],
      );
      const [after] = await sql.unsafe("SELECT list_version, top_total, top_completed FROM todo_sets WHERE id = $1", [groceries]);
      expect(after).toMatchObject({ top_total: before.top_total + 1n, top_completed: before.top_completed + 1n });
      expect(after.list_version).not.toBe(before.list_version);
      expect(rowid).toBeGreaterThan((await sql.unsafe("SELECT max(rowid) AS m FROM todos WHERE id <> 'after-copy'"))[0].m);
      await sql.unsafe("DELETE FROM todos WHERE id = 'after-copy'");
    });
  });

  it("refuses a database that is not empty, and changes nothing in it: one already copied into, or one holding anything else", async () => {
    const history = () => withPg(pg.url, async (sql) => [...(await sql.unsafe(`SELECT tag, applied_at FROM "__cairn_migrations" ORDER BY tag`))]);
    const migrated = await history();
    const again = cli(["migrate-to-postgres", pg.url], { CAIRN_DATA: instance.dataDir });
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toStartWith("cairn: the PostgreSQL database is not empty (schema public holds ");
    expect(again.stderr).toContain("create a new one and give its URL; nothing was written to PostgreSQL\n");
    expect(await history()).toEqual(migrated);

    const other = await pg.cluster.createDatabase();
    await withPg(other, (sql) => sql.unsafe("CREATE TABLE keep (x int); INSERT INTO keep VALUES (7)"));
    const refused = cli(["migrate-to-postgres", other], { CAIRN_DATA: instance.dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toStartWith("cairn: the PostgreSQL database is not empty (schema public holds keep)");
    expect(await relations(other)).toEqual(["keep"]);
    expect([...(await withPg(other, (sql) => sql.unsafe("SELECT x FROM keep")))]).toEqual([{ x: 7 }]);
  });

  it("refuses a SQLite database behind this Cairn's migrations until cairn migrate has run, writing nothing", async () => {
    const dataDir = tempDir();
    const sqlite = new Database(join(dataDir, "cairn.db"));
    sqlite.run("PRAGMA journal_mode = WAL");
    const migrations = bundledMigrations();
    applyMigrations(sqlite, migrations.slice(0, -1));
    sqlite.close();
    const target = await pg.cluster.createDatabase();
    const refused = cli(["migrate-to-postgres", target], { CAIRN_DATA: dataDir });
    expect(refused).toMatchObject({
      code: 1,
      stderr: `cairn: the SQLite database lacks 1 of this Cairn's migrations (${migrations.at(-1)?.tag} the last): run cairn migrate first, then this again\n`,
    });
    expect(await relations(target)).toEqual([]);

    expect(cli(["migrate"], { CAIRN_DATA: dataDir }).code).toBe(0);
    const copied = cli(["migrate-to-postgres", target], { CAIRN_DATA: dataDir });
    expect(copied.code).toBe(0);
    // Never started: nothing sealed and no key yet, so the instances on PostgreSQL get a new one.
    expect(copied.stdout).toContain(" rows, 0 sealed values opened\n");
    expect(copied.stdout).toContain("CAIRN_SECRET, a new secret of at least 32 characters");
  });

  it("refuses while another process has the SQLite file open (Cairn still running), writing nothing", async () => {
    const target = await pg.cluster.createDatabase();
    const running = new Database(join(instance.dataDir, "cairn.db"));
    try {
      running.query("SELECT count(*) FROM users").get();
      const refused = cli(["migrate-to-postgres", target], { CAIRN_DATA: instance.dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `cairn: ${join(instance.dataDir, "cairn.db")} is open in another process (is Cairn running?): stop Cairn, then run cairn migrate-to-postgres again\n`,
      );
    } finally {
      running.close();
    }
    expect(await relations(target)).toEqual([]);
  }, 30_000);

  it("refuses a CAIRN_SECRET that does not open the database's sealed values, before writing anything", async () => {
    const target = await pg.cluster.createDatabase();
    const refused = cli(["migrate-to-postgres", target], { CAIRN_DATA: instance.dataDir, CAIRN_SECRET: "not-the-secret-this-database-was-sealed-with" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toStartWith("cairn: CAIRN_SECRET does not open this database's sealed values");
    expect(await relations(target)).toEqual([]);
  });

  it("says so in one line when PostgreSQL cannot be reached or refuses, never showing the password", () => {
    const unreachable = cli(["migrate-to-postgres", "postgres://cairn:hunter2@127.0.0.1:1/cairn"], { CAIRN_DATA: instance.dataDir });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toStartWith("cairn: cannot reach PostgreSQL at postgres://cairn:***@127.0.0.1:1/cairn: ");
    const missing = `postgres://postgres@${pg.cluster.host}:${pg.cluster.port}/no_such_database`;
    const refused = cli(["migrate-to-postgres", missing], { CAIRN_DATA: instance.dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toStartWith(`cairn: PostgreSQL at ${missing} refused: `);
    expect(refused.stderr).toContain('"no_such_database" does not exist');
    for (const out of [unreachable, refused]) expect(out.stderr.split("\n")).toHaveLength(2);
  });

  it("fails the verification, naming it, when a sealed value read back from PostgreSQL does not open", async () => {
    const dataDir = copyOf(instance);
    readSqlite(dataDir, (sqlite) => {
      const { sealed } = sqlite.query("SELECT token_sealed AS sealed FROM share_links WHERE id = ?").get(instance.shareLink) as { sealed: string };
      const flipped = `${sealed.slice(0, 10)}${sealed[10] === "A" ? "B" : "A"}${sealed.slice(11)}`;
      sqlite.run("UPDATE share_links SET token_sealed = ? WHERE id = ?", [flipped, instance.shareLink]);
    });
    const target = await pg.cluster.createDatabase();
    const failed = cli(["migrate-to-postgres", target], { CAIRN_DATA: dataDir });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      new RegExp(
        `^cairn: verification failed: 1 of \\d+ sealed values read back from PostgreSQL do not open with the instance key \\(share_links\\.token_sealed of id=${instance.shareLink}\\); the copy is committed: drop the PostgreSQL database and create it again before another try\\n$`,
      ),
    );
    expect(failed.stdout).not.toContain("verified:");
  });

  it("fails the verification when a row or a count differs, or with another key", async () => {
    const dataDir = copyOf(instance);
    const target = await pg.cluster.createDatabase();
    const sqlite = new Database(join(dataDir, "cairn.db"), { readwrite: true });
    try {
      await withPg(target, async (sql) => {
        const copied = await copyIntoPostgres(sql, sqlite);
        expect(await verifyCopy(sql, sqlite, copied.tables, copied.counts)).toBeGreaterThan(1200);
        await sql.unsafe("UPDATE todo_sets SET name = 'Renamed' WHERE id = $1", [instance.sets[1]]);
        // Neither table has triggers: nothing else moves.
        await sql.unsafe("DELETE FROM audit_log WHERE id = (SELECT min(id) FROM audit_log)");
        const error = await failure(verifyCopy(sql, sqlite, copied.tables, copied.counts));
        expect(error).toBeInstanceOf(MoveError);
        expect((error as Error).message).toMatch(/audit_log: (\d+) rows in SQLite, \1 copied, \d+ in PostgreSQL/);
        expect((error as Error).message).toContain(`todo_sets: 1 of 2 sampled rows differ or are missing (the first: id=${instance.sets[1]})`);

        const wrongKey = await failure(openSealedValues(sql, createSecretBox("x".repeat(43))));
        expect(wrongKey).toBeInstanceOf(MoveError);
        expect((wrongKey as Error).message).toMatch(
          /^verification failed: (\d+) of \1 sealed values read back from PostgreSQL do not open with the instance key \(settings instance_secret_check; /,
        );
      });
    } finally {
      sqlite.close();
    }
  });

  it("knows every sealed column of the schema (a new one belongs in SEALED_COLUMNS, with its purpose)", async () => {
    const sealed = await withPg(pg.url, (sql) =>
      sql.unsafe(
        "SELECT c.relname AS table, a.attname AS column FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attname LIKE '%\\_sealed' ORDER BY 1, 2",
      ),
    );
    expect(sealed.map((s: { table: string; column: string }) => `${s.table}.${s.column}`)).toEqual(SEALED_COLUMNS.map((s) => `${s.table}.${s.column}`).sort());
  });
});

describe("issue 46: cairn migrate-to-postgres on the command line", () => {
  it("is in the help, needs a URL, and takes only a postgres:// one", () => {
    expect(cli(["--help"]).stdout).toContain("  migrate-to-postgres URL\n");
    const bare = cli(["migrate-to-postgres"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toStartWith("cairn: migrate-to-postgres needs the URL of an empty PostgreSQL database");
    const mysql = cli(["migrate-to-postgres", "mysql://root:hunter2@db/cairn"], { CAIRN_DATA: tempDir() });
    expect(mysql).toMatchObject({
      code: 1,
      stderr: 'cairn: the target must be a postgres:// URL (postgres://user:password@host:5432/database), got "mysql://root:***@db/cairn"\n',
    });
  });
});

describe("issue 46: SQLite values as PostgreSQL takes them", () => {
  it("takes each value of its column's kind as it is, and refuses, naming the column, one that would land changed", () => {
    const where = () => "todos.sort_order (row 3 read)";
    expect(toPostgres(9_223_372_036_854_775_807n, "bigint", where)).toBe(9_223_372_036_854_775_807n);
    expect(toPostgres(null, "bytea", where)).toBeNull();
    expect(toPostgres(0.5, "double precision", where)).toBe(0.5);
    const bytes = new Uint8Array([0, 255]);
    expect(toPostgres(bytes, "bytea", where)).toBe(bytes);
    expect(() => toPostgres(1.5, "bigint", where)).toThrow(
      new MoveError("todos.sort_order (row 3 read) holds the number 1.5, which a PostgreSQL bigint column cannot hold as it is"),
    );
    expect(() => toPostgres(bytes, "text", where)).toThrow("holds a blob of 2 bytes, which a PostgreSQL text column cannot hold as it is");
  });
});

async function sequenceOf(sql: Bun.SQL, table: string, column: string): Promise<string> {
  const [{ name }] = await sql.unsafe("SELECT pg_get_serial_sequence($1, $2) AS name", [`"${table}"`, column]);
  return name;
}
