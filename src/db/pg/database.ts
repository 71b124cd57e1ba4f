import type { Database } from "bun:sqlite";
import { BaseSQLiteDatabase, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db, TxTurn } from "../client.ts";
import type { GroupCommit } from "../group-commit.ts";
import { settle, type TxFrame, type TxGate, txScope } from "../tx-gate.ts";
import type { PgClient, PgTx } from "./client.ts";
import type { Queryable } from "./query.ts";
import { HOLD_TURN, turnNames } from "./transaction.ts";
import { PostgresSession } from "./session.ts";

/**
 * Every PostgreSQL commit is durable when it returns (synchronous_commit on), and each
 * transaction has a connection of its own: there is no batch to join or wait for.
 */
const committedAtOnce: GroupCommit = {
  join: () => 0,
  settled: () => null,
  failure: () => null,
  afterDurable: (work) => work(),
  recover: () => {},
  holding: () => false,
  flush: () => {},
  observeCommits: () => {},
  observeFailures: () => {},
  observeBreak: () => {},
};

/** No gate: transactions do not share a connection with anything else. */
const open: TxGate = {
  run: settle,
  acquire: () => undefined,
  release: () => {},
  owner: () => null,
  whenFree: (work) => work(),
};

/** What only the SQLite file has (PRAGMAs, backup, the commit stamp): reaching for it here is a missing dialect branch. */
const noSqliteConnection = new Proxy({} as Database, {
  get(_target, name) {
    throw new Error(`the SQLite connection (${String(name)}) is not there on PostgreSQL: this path needs a PostgreSQL branch`);
  },
});

/**
 * The application's database on PostgreSQL (issue 46): the same drizzle queries as on SQLite
 * (db/pg/session.ts), each statement outside a transaction on a pooled connection, each
 * transaction on one of its own, SERIALIZABLE and run again on a serialization failure
 * (db/pg/transaction.ts). A transaction follows the async scope, as on SQLite (db/tx-gate.ts).
 */
export function postgresDatabase(pg: PgClient): Db & { $pg: PgClient } {
  const dialect = new SQLiteAsyncDialect();
  let db: Db;
  const frameOf = (): TxFrame | undefined => {
    const frame = txScope.getStore();
    return frame?.connection === db && frame.open ? frame : undefined;
  };
  const target = (): Queryable => (frameOf()?.handle as PgTx | undefined) ?? pg;
  const drizzled = new BaseSQLiteDatabase("async", dialect, new PostgresSession(target, dialect), undefined);
  const transact = async <T>(fn: () => Promise<T> | T, options: TxTurn = {}): Promise<T> => {
    const { turn } = options;
    const outer = frameOf();
    if (outer) return savepoint(outer, turn === undefined ? fn : () => holdTurns(outer, turn).then(fn));
    let frame: TxFrame | undefined;
    const result = await pg.transaction(
      async (tx) => {
        // A run after a serialization failure starts over: the work of the failed one never leaves.
        frame = { connection: db, work: [], open: true, handle: tx };
        try {
          return await txScope.run(frame, fn);
        } finally {
          frame.open = false;
        }
      },
      { turn },
    );
    for (const work of (frame as TxFrame).work) work();
    return result;
  };
  db = Object.assign(drizzled, {
    $client: noSqliteConnection,
    $dialect: "postgres" as const,
    $gate: open,
    $transact: transact,
    $afterCommit: [],
    $statements: new Map(),
    $group: committedAtOnce,
    $walSync: null,
    $commits: null,
    $releaseCommits: () => {},
    $pg: pg,
    $end: () => pg.close(),
  }) as unknown as Db;
  return db as Db & { $pg: PgClient };
}

/** The turns, in a transaction already begun: held to its end (its snapshot is already taken). */
async function holdTurns(frame: TxFrame, turn: TxTurn["turn"]): Promise<void> {
  for (const name of turnNames(turn)) await (frame.handle as PgTx).query(HOLD_TURN, [name]);
}

/** A transaction inside another: a savepoint on its connection, its after-commit work dropped with it if it rolls back. */
async function savepoint<T>(outer: TxFrame, fn: () => Promise<T> | T): Promise<T> {
  const mark = outer.work.length;
  const tx = outer.handle as PgTx;
  try {
    return await tx.savepoint(async (inner) => {
      outer.handle = inner;
      try {
        return await fn();
      } finally {
        outer.handle = tx;
      }
    });
  } catch (e) {
    outer.work.length = mark;
    throw e;
  }
}
