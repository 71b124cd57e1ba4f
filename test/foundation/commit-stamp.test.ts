import { describe, expect, it } from "bun:test";
import type { Statement } from "bun:sqlite";
import { readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, type Db, openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { tableVersion } from "../../src/db/table-version.ts";
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
    const before = stampOf(db);
    // Were the locks gone, this process would find itself the first opener and set the index up
    // anew, the counter starting over (what a plain mapping made after the connection did).
    commitElsewhere(file, "INSERT INTO t VALUES (1)");
    commitElsewhere(file, "INSERT INTO t VALUES (2)");
    expect(stampOf(db)).toBe((before + 2) >>> 0);
    expect(stampOf(second)).toBe(stampOf(db));
    closeDatabase(second);
    closeDatabase(db);
  });

  it("is mapped again after every connection closed and SQLite removed the file, and read from the new one", () => {
    const file = join(tempDir(), "r.db");
    const first = openDatabase(file);
    first.$client.run("CREATE TABLE t (x)");
    closeDatabase(first);
    expect(first.$commits).toBeNull();
    const again = openDatabase(file);
    const before = stampOf(again);
    again.$client.run("INSERT INTO t VALUES (1)");
    expect(stampOf(again)).not.toBe(before);
    closeDatabase(again);
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
    for (let i = 0; i < 5; i++) expect(tableVersion(db, "oauth_clients")).toBe(before);
    expect(tableVersion(db, "access_tokens")).toBeGreaterThanOrEqual(0);
    expect(reads).toBe(0);
    commitElsewhere(file, "UPDATE cache_versions SET version = version + 41 WHERE name = 'oauth_clients'");
    expect(tableVersion(db, "oauth_clients")).toBe(before + 41);
    expect(tableVersion(db, "signing_keys")).toBeGreaterThanOrEqual(0);
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
