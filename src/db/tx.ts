import type { Db } from "./client.ts";

/**
 * Runs `fn` in one IMMEDIATE transaction (the write lock is taken up front, so two writers never
 * deadlock on an upgrade). A call made inside another joins it as a savepoint, as bun:sqlite
 * nests. Work handed to `afterCommit` meanwhile runs once the outermost transaction commits, and
 * is dropped with any part that rolls back.
 */
export function withTx<T>(db: Db, fn: () => T): T {
  const outermost = !db.$client.inTransaction;
  const mark = db.$afterCommit.length;
  let result: T;
  try {
    result = db.$client.transaction(fn).immediate();
  } catch (e) {
    db.$afterCommit.length = mark;
    throw e;
  }
  if (outermost) for (const work of db.$afterCommit.splice(0)) work();
  return result;
}

/**
 * Runs `work` when what was written so far is committed (Vikunja's DispatchOnCommit): at once
 * outside a transaction, after the outermost commit inside one, never for a rolled-back write.
 */
export function afterCommit(db: Db, work: () => void): void {
  if (db.$client.inTransaction) db.$afterCommit.push(work);
  else work();
}
