import type { Statement } from "bun:sqlite";
import type { Db, TxTurn } from "./client.ts";
import { prepared } from "./prepared.ts";
import { type TxFrame, txScope } from "./tx-gate.ts";

/**
 * The statements that open and close a transaction or a savepoint, prepared once per connection.
 * bun:sqlite's `transaction(fn)` builds a new wrapper (and its deferred, immediate and exclusive
 * variants) on every call, a few µs of every write request on the token paths (issue 12).
 */
const brackets = (db: Db) => {
  const make = (sql: string): Statement => db.$client.prepare(sql);
  return {
    top: { begin: make("BEGIN IMMEDIATE"), end: make("COMMIT"), undo: make("ROLLBACK") },
    // One name for every level: RELEASE and ROLLBACK TO act on the innermost savepoint of that name.
    nested: { begin: make('SAVEPOINT "cairn tx"'), end: make('RELEASE "cairn tx"'), undo: make('ROLLBACK TO "cairn tx"') },
  };
};

/**
 * Runs `fn` in one IMMEDIATE transaction (the write lock is taken up front, so two writers never
 * deadlock on an upgrade); inside the group commit's batch it is a savepoint of it. A call made
 * inside another (in its async scope: db/tx-gate.ts txScope) joins it as a savepoint. While it
 * is open, other requests' statements wait at the gate. Work handed to `afterCommit` meanwhile
 * runs once the outermost transaction commits (with the batch, once that is durable), and is
 * dropped with any part that rolls back. `fn` awaits only the database: the gate is held until
 * it ends. `options.turn` matters on PostgreSQL only (db/client.ts TxTurn).
 */
export async function withTx<T>(db: Db, fn: () => Promise<T> | T, options?: TxTurn): Promise<T> {
  // PostgreSQL: a transaction of its own on a connection of its own (db/pg/database.ts).
  if (db.$transact) return db.$transact(fn, options);
  const frame = txScope.getStore();
  if (frame?.connection === db && frame.open) return savepoint(db, frame, fn);
  const mine: TxFrame = { connection: db, work: [], open: true };
  const turn = db.$gate.acquire(mine);
  if (turn !== undefined) await turn;
  let result: T;
  let committed: boolean;
  try {
    // A group batch SQLite rolled back by itself is noticed first: its queued work must not leave with ours.
    if (!db.$client.inTransaction) db.$group.recover();
    committed = !db.$client.inTransaction;
    const bracket = prepared(db, brackets)[committed ? "top" : "nested"];
    bracket.begin.run();
    try {
      result = await txScope.run(mine, fn);
      bracket.end.run();
    } catch (e) {
      // As bun:sqlite does: undone if still open (SQLite may have rolled back by itself), a savepoint then released.
      if (db.$client.inTransaction) {
        bracket.undo.run();
        if (!committed) bracket.end.run();
      }
      throw e;
    }
  } finally {
    mine.open = false;
    db.$gate.release();
  }
  // Committed on its own, or released into the batch, whose commit and fsync the work then waits for.
  if (committed) for (const work of mine.work) work();
  else for (const work of mine.work) afterCommit(db, work);
  return result;
}

/** A transaction inside another: a savepoint, its after-commit work dropped with it if it rolls back. */
async function savepoint<T>(db: Db, frame: TxFrame, fn: () => Promise<T> | T): Promise<T> {
  const mark = frame.work.length;
  const bracket = prepared(db, brackets).nested;
  bracket.begin.run();
  try {
    const result = await fn();
    bracket.end.run();
    return result;
  } catch (e) {
    frame.work.length = mark;
    if (db.$client.inTransaction) {
      bracket.undo.run();
      bracket.end.run();
    }
    throw e;
  }
}

/** Whether a statement on `db` now runs inside a transaction: withTx's (either store), or SQLite's open group-commit batch. */
export function insideTransaction(db: Db): boolean {
  const frame = txScope.getStore();
  if (frame?.connection === db && frame.open) return true;
  return db.$dialect === "sqlite" && db.$client.inTransaction;
}

/**
 * Runs `work` when what was written so far is committed and durable (Vikunja's DispatchOnCommit):
 * at once outside a transaction with nothing syncing, after the outermost commit inside one (and
 * a group commit's fsync), never for a rolled-back write.
 */
export function afterCommit(db: Db, work: () => void): void {
  const frame = txScope.getStore();
  if (frame?.connection === db && frame.open) return void frame.work.push(work);
  if (db.$group.holding()) return void db.$afterCommit.push(work);
  // Committed is not yet durable while a batch syncs (db/group-commit.ts): the work leaves after it.
  db.$group.afterDurable(work);
}

/** Waits until what was written so far is durable (db/group-commit.ts); false when the batch holding it failed. */
export async function durable(db: Db): Promise<boolean> {
  try {
    await db.$group.settled();
    return true;
  } catch {
    return false;
  }
}
