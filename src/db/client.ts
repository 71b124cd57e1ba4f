import { Database } from "bun:sqlite";
import { chmodSync, closeSync, openSync, statSync } from "node:fs";
import { BaseSQLiteDatabase, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { type CommitStamp, mapCommitStamp } from "./commit-stamp.ts";
import { createGroupCommit, type GroupCommit } from "./group-commit.ts";
import { GatedSQLiteSession, type RunResult } from "./sqlite-session.ts";
import { createTxGate, type TxGate } from "./tx-gate.ts";
import { type WalSync, walSync } from "./wal-sync.ts";
/**
 * Names the rows a transaction is about to write (`workspace-team:<id>`): on PostgreSQL, where
 * transactions run side by side on several instances, those of one turn take turns (db/pg/transaction.ts)
 * instead of failing to serialize; SQLite's one writer at a time already does that.
 */
export type TxTurn = { turn?: string | readonly string[] };

/**
 * The typed drizzle client over one bun:sqlite connection. Tables are imported where they are
 * used. Every query is awaited (issue 46: the same code runs on PostgreSQL); on SQLite it still
 * runs at once, behind the transaction gate. `$afterCommit` holds work waiting for the group
 * commit's batch to commit (db/tx.ts): it is the connection's own state, as the batch is.
 */
export type Db = BaseSQLiteDatabase<"async", RunResult> & {
  $client: Database;
  /** Which database runs the queries: the embedded SQLite file, or PostgreSQL (CAIRN_DATABASE_URL). */
  $dialect: "sqlite" | "postgres";
  /** Keeps other requests' statements out of an open transaction (db/tx-gate.ts). */
  $gate: TxGate;
  /** PostgreSQL's transactions (db/pg/database.ts); SQLite's are db/tx.ts withTx's own. */
  $transact?: <T>(fn: () => Promise<T> | T, options?: TxTurn) => Promise<T>;
  /** PostgreSQL: closes the pool and the listening connection (closeDatabase). */
  $end?: () => Promise<void>;
  $afterCommit: (() => void)[];
  /** Statements prepared once for this connection (db/prepared.ts), as bun:sqlite caches its own. */
  $statements: Map<(db: Db) => unknown, unknown>;
  /** Group commit of concurrent requests' writes (db/group-commit.ts). */
  $group: GroupCommit;
  /** The WAL fsync the group commit makes off the event loop, when this process is the only one serving. */
  $walSync: WalSync | null;
  /** What moves with every commit by anyone (db/commit-stamp.ts), for caches; null once closed. */
  $commits: CommitStamp | null;
  $releaseCommits: () => void;
};

/**
 * The commit stamp, for a cache to compare: null inside a transaction (whose reads stay at its
 * start while others may commit, and whose own writes no commit shows yet) and where it cannot
 * be read, where the cache asks SQL instead.
 */
export function commitStamp(db: Db): number | null {
  return db.$commits && !db.$client.inTransaction ? db.$commits() : null;
}

/** How long a statement waits for another connection's write lock (ARCHITECTURE section 1). */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * The pragmas of ARCHITECTURE section 1: no acknowledged write may be lost. `isNew`: the file is
 * still empty, no connection has written to it yet.
 */
function applyPragmas(sqlite: Database, isNew: boolean): void {
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Issue 43: a new file gives back what purges free (db/vacuum.ts). It only takes before the
  // first table, and before WAL mode writes the header; on an older file it is what VACUUM will
  // make (db/vacuum.ts convertToIncremental asks for it itself). Setting it writes the header in a
  // write transaction, so it is asked only of an empty file: on a database in use it would wait for
  // (or, busy, fail on) another connection's open write.
  if (isNew) sqlite.run("PRAGMA auto_vacuum = INCREMENTAL");
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
}

/**
 * Opens (creating it owner-only if absent) the SQLite file and wraps it in drizzle.
 * `syncOffLoop`: group commits fsync the WAL on the thread pool (db/group-commit.ts), for the one
 * process serving; with several, each COMMIT makes its own fsync.
 */
export function openDatabase(file: string, { syncOffLoop = false }: { syncOffLoop?: boolean } = {}): Db {
  // Create the file with mode 0600 before SQLite does, so it is never world-readable; the -wal
  // and -shm files inherit the main file's permissions. Only a new file is opened (and closed):
  // closing a descriptor of a file another connection of this process has open would drop its locks.
  try {
    closeSync(openSync(file, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  chmodSync(file, 0o600);
  // Empty: nobody has written to it (WAL mode writes the header to the main file first).
  const isNew = statSync(file).size === 0;
  // Before this connection locks the -shm file: mapping it later would drop those locks.
  const stamp = mapCommitStamp(file);
  let sqlite: Database | undefined;
  try {
    sqlite = new Database(file, { create: true, strict: true });
    applyPragmas(sqlite, isNew);
  } catch (e) {
    sqlite?.close(false);
    stamp.release();
    throw e;
  }
  const sync = syncOffLoop ? walSync(`${file}-wal`) : null;
  const gate = createTxGate();
  const dialect = new SQLiteAsyncDialect();
  const drizzled = new BaseSQLiteDatabase("async", dialect, new GatedSQLiteSession(sqlite, dialect, gate), undefined);
  const db = Object.assign(drizzled, {
    $client: sqlite,
    $dialect: "sqlite",
    $gate: gate,
    $afterCommit: [],
    $statements: new Map(),
    $walSync: sync,
    $commits: stamp.read,
    $releaseCommits: stamp.release,
  }) as unknown as Db;
  db.$group = createGroupCommit(db, sync);
  return db;
}

/**
 * Closes, everything committed copied into the main file first (a passive checkpoint, which
 * waits for no reader of another process), so the main file alone is current after a clean
 * stop. SQLite itself keeps the connection until its prepared statements are gone: with
 * statements still held, closing never checkpoints on its own.
 */
export function closeDatabase(db: Db): void {
  if (db.$end) {
    // PostgreSQL: running queries finish (up to 5 s), then the connections close.
    void db.$end().catch(() => {});
    return;
  }
  // What a batch holds was written by requests still waiting for it: committed, not dropped.
  db.$group?.flush();
  try {
    db.$client.run("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // Best effort: what stays in the WAL is read from it, and copied by the next checkpoint.
  }
  db.$client.close(false);
  db.$commits = null;
  db.$releaseCommits?.();
  db.$walSync?.close();
}
