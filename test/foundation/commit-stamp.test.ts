import { describe, expect, it } from "bun:test";
import { Database, type Statement } from "bun:sqlite";
import { closeSync, existsSync, openSync, readFileSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, type Db, openDatabase } from "../../src/db/client.ts";
import { mapCommitStamp } from "../../src/db/commit-stamp.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { tableVersion } from "../../src/db/table-version.ts";
import { spawnOwned } from "../helpers/processes.ts";
import { tempDir } from "../helpers/temp.ts";

/** The POSIX locks this process holds on `path` (SQLite's on its -shm file: the one that keeps another process from resetting it). */
function locksHeld(path: string): number {
  const inode = statSync(path).ino;
  return readFileSync("/proc/locks", "utf8")
    .split("\n")
    .filter((line) => line.includes(`:${inode} `) && line.split(/\s+/).includes(String(process.pid))).length;
}

/** Commits one row in another process, as a worker or the CLI would. */
function commitElsewhere(file: string, sql: string) {
  const run = Bun.spawnSync([
    process.execPath,
    "-e",
    `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(file)}); d.run(${JSON.stringify(sql)}); d.close();`,
  ]);
  expect(run.exitCode).toBe(0);
}

const stampOf = (db: Db) => db.$commits?.() as number;

describe("commit stamp (db/commit-stamp.ts)", () => {
  it("moves with every commit, by this connection, another one or another process, and not with reads or open transactions", () => {
    const file = join(tempDir(), "s.db");
    const db = openDatabase(file);
    // A new database's WAL index is set up with its first write: until then SQL answers.
    expect(db.$commits?.()).toBeNull();
    db.$client.run("CREATE TABLE t (x)");
    expect(typeof stampOf(db)).toBe("number");
    let last = stampOf(db);
    const moved = () => {
      const now = stampOf(db);
      const changed = now !== last;
      last = now;
      return changed;
    };
    db.$client.run("INSERT INTO t VALUES (1)");
    expect(moved()).toBe(true);
    db.$client.query("SELECT count(*) FROM t").get();
    expect(moved()).toBe(false);
    db.$client.run("BEGIN IMMEDIATE");
    db.$client.run("INSERT INTO t VALUES (2)");
    expect(moved()).toBe(false);
    db.$client.run("COMMIT");
    expect(moved()).toBe(true);
    const other = openDatabase(file);
    other.$client.run("INSERT INTO t VALUES (3)");
    expect(moved()).toBe(true);
    commitElsewhere(file, "INSERT INTO t VALUES (4)");
    expect(moved()).toBe(true);
    // A checkpoint starts the WAL over; the next commit still moves the stamp.
    db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.$client.run("INSERT INTO t VALUES (5)");
    expect(moved()).toBe(true);
    expect(db.$client.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 5 });
    closeDatabase(other);
    closeDatabase(db);
  });

  it("is mapped without dropping SQLite's locks, so another process never resets the index under a live connection", () => {
    const file = join(tempDir(), "l.db");
    const db = openDatabase(file);
    db.$client.run("CREATE TABLE t (x)");
    expect(locksHeld(`${file}-shm`)).toBeGreaterThan(0);
    // A second connection of the same process shares the mapping, also under another name for
    // the same file: nothing is opened and closed again.
    const alias = join(tempDir(), "alias.db");
    symlinkSync(file, alias);
    const second = openDatabase(alias);
    expect(locksHeld(`${file}-shm`)).toBeGreaterThan(0);
    expect(locksHeld(file)).toBeGreaterThan(0);
    const shm = statSync(`${file}-shm`).ino;
    const before = stampOf(db);
    // Were the locks gone, another process closing would find itself the last connection and
    // remove the -wal and -shm files under these live ones.
    commitElsewhere(file, "INSERT INTO t VALUES (1)");
    commitElsewhere(file, "INSERT INTO t VALUES (2)");
    expect(statSync(`${file}-shm`).ino).toBe(shm);
    expect(locksHeld(`${file}-shm`)).toBeGreaterThan(0);
    expect(stampOf(db)).not.toBe(before);
    expect(stampOf(second)).toBe(stampOf(db));
    expect(second.$client.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
    closeDatabase(second);
    closeDatabase(db);
  });

  it("follows the file SQLite makes anew after every connection closed and it removed the old one", () => {
    const file = join(tempDir(), "r.db");
    const first = openDatabase(file);
    first.$client.run("CREATE TABLE t (x)");
    const before = statSync(`${file}-shm`).ino;
    closeDatabase(first);
    expect(first.$commits).toBeNull();
    expect(existsSync(`${file}-shm`)).toBe(false);
    const again = openDatabase(file);
    again.$client.run("INSERT INTO t VALUES (1)");
    expect(statSync(`${file}-shm`).ino).not.toBe(before);
    const stamp = stampOf(again);
    commitElsewhere(file, "INSERT INTO t VALUES (2)");
    expect(stampOf(again)).not.toBe(stamp);
    closeDatabase(again);
  });

  it("stops answering, rather than answer from a file SQLite no longer uses, when the file was replaced before its first use", () => {
    const file = join(tempDir(), "x.db");
    const old = new Database(file);
    old.run("PRAGMA journal_mode = WAL");
    old.run("CREATE TABLE t (x)");
    // Mapped for a connection about to open; before it does, the last connection of another closes:
    // SQLite removes the -shm file, and the next connection to open makes a new one.
    const stamp = mapCommitStamp(file);
    old.close();
    expect(existsSync(`${file}-shm`)).toBe(false);
    const next = new Database(file);
    next.run("INSERT INTO t VALUES (1)");
    expect(stamp.read()).toBeNull();
    expect(stamp.read()).toBeNull();
    stamp.release();
    next.close();
  });

  it("checks a view kept from an earlier connection again, and never maps the file SQLite uses under its connection", async () => {
    const file = join(tempDir(), "k.db");
    // Another process holds the database open, so the -shm file outlives this process's first connection.
    const holder = spawnOwned(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(file)}); d.run("PRAGMA journal_mode = WAL"); d.run("CREATE TABLE IF NOT EXISTS t (x)"); console.log("ready"); for await (const _ of Bun.stdin.stream()) {} d.close();`,
      ],
      { stdin: "pipe", stdout: "pipe" },
    );
    const reader = holder.stdout.getReader();
    await reader.read();
    const first = openDatabase(file);
    first.$client.run("INSERT INTO t VALUES (1)");
    expect(stampOf(first)).not.toBeNull();
    closeDatabase(first);
    // A connection about to open reuses the kept view; before it opens, the holder's close removes the file.
    const stamp = mapCommitStamp(file);
    holder.stdin.end();
    await holder.exited;
    expect(existsSync(`${file}-shm`)).toBe(false);
    const next = new Database(file);
    next.run("INSERT INTO t VALUES (2)");
    expect(stamp.read()).toBeNull();
    // The file SQLite now uses is held by that connection: a later one must not map it.
    const later = openDatabase(file);
    expect(later.$commits?.()).toBeNull();
    expect(locksHeld(`${file}-shm`)).toBeGreaterThan(0);
    closeDatabase(later);
    stamp.release();
    next.close();
  });

  it("moves with any change of the index header, also one that sets the commit counter back (recovery rebuilds it from zero)", () => {
    const file = join(tempDir(), "h.db");
    writeFileSync(file, "");
    const header = new Uint32Array(1024);
    header.set([3007000, 0, 5, 0x10000001, 40, 2]);
    writeFileSync(`${file}-shm`, header);
    const stamp = mapCommitStamp(file);
    const first = stamp.read();
    expect(stamp.read()).toBe(first);
    const fd = openSync(`${file}-shm`, "r+");
    const rewrite = (values: number[]) => writeSync(fd, new Uint32Array([3007000, 0, ...values]), 0, 4 * (values.length + 2), 0);
    rewrite([5, 0x10000001, 41]); // the same counter, one more frame
    const second = stamp.read();
    expect(second).not.toBe(first);
    rewrite([0, 0x10000001, 41]); // the counter back at zero
    const third = stamp.read();
    expect(third).not.toBe(second);
    rewrite([0, 0x10000001, 41]);
    expect(stamp.read()).toBe(third);
    closeSync(fd);
    stamp.release();
  });
});

describe("table versions", () => {
  it("follow a change by another process at once, are read again only after a commit, and afresh inside a transaction", () => {
    const file = join(tempDir(), "v.db");
    const db = openDatabase(file);
    applyMigrations(db.$client);
    const before = tableVersion(db, "oauth_clients");
    // Count the reads of every version through the one statement that makes them.
    const statement = [...db.$statements.values()].find((s) => String(s).includes("SELECT name, version FROM cache_versions")) as Statement;
    let reads = 0;
    const values = statement.values.bind(statement);
    statement.values = ((...args: []) => {
      reads++;
      return values(...args);
    }) as typeof statement.values;
    const direct = (name: string) => (db.$client.query("SELECT version FROM cache_versions WHERE name = ?").get(name) as { version: number }).version;
    for (let i = 0; i < 5; i++) expect(tableVersion(db, "oauth_clients")).toBe(before);
    expect(tableVersion(db, "access_tokens")).toBe(direct("access_tokens"));
    expect(reads).toBe(0);
    commitElsewhere(file, "UPDATE cache_versions SET version = version + 41 WHERE name = 'oauth_clients'");
    expect(tableVersion(db, "oauth_clients")).toBe(before + 41);
    expect(tableVersion(db, "signing_keys")).toBe(direct("signing_keys"));
    expect(reads).toBe(1);
    // Inside a transaction its own uncommitted write counts, and is gone with the rollback.
    db.$client.run("BEGIN IMMEDIATE");
    db.$client.run("UPDATE cache_versions SET version = 7 WHERE name = 'signing_keys'");
    expect(tableVersion(db, "signing_keys")).toBe(7);
    db.$client.run("ROLLBACK");
    expect(tableVersion(db, "signing_keys")).not.toBe(7);
    closeDatabase(db);
  });
});
