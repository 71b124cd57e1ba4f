import type { Db } from "./client.ts";

/**
 * Runs `fn` in one IMMEDIATE transaction (the write lock is taken up front, so two writers never
 * deadlock on an upgrade). A call made inside another joins it as a savepoint, as bun:sqlite nests.
 */
export function withTx<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate();
}
