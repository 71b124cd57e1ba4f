import type { Statement } from "bun:sqlite";
import type { Db } from "./client.ts";
import { prepared } from "./prepared.ts";

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
 * deadlock on an upgrade). A call made inside another joins it as a savepoint. Work handed to
 * `afterCommit` meanwhile runs once the outermost transaction commits, and is dropped with any
 * part that rolls back.
 */
export function withTx<T>(db: Db, fn: () => T): T {
  // A group batch SQLite rolled back by itself is noticed first: its queued work must not leave with ours.
  if (!db.$client.inTransaction) db.$group.recover();
  const outermost = !db.$client.inTransaction;
  const mark = db.$afterCommit.length;
  const bracket = prepared(db, brackets)[outermost ? "top" : "nested"];
  let result: T;
  try {
    bracket.begin.run();
    result = fn();
    bracket.end.run();
  } catch (e) {
    db.$afterCommit.length = mark;
    // As bun:sqlite does: undone if still open (SQLite may have rolled back by itself), a savepoint then released.
    if (db.$client.inTransaction) {
      bracket.undo.run();
      if (!outermost) bracket.end.run();
    }
    throw e;
  }
  if (outermost) for (const work of db.$afterCommit.splice(0)) work();
  return result;
}

/**
 * Runs `work` when what was written so far is committed and durable (Vikunja's DispatchOnCommit):
 * at once outside a transaction with nothing syncing, after the outermost commit inside one (and
 * a group commit's fsync), never for a rolled-back write.
 */
export function afterCommit(db: Db, work: () => void): void {
  if (db.$client.inTransaction) return void db.$afterCommit.push(work);
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
