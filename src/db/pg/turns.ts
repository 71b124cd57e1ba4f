/**
 * Calls that take turns in this process, by key: a call runs once every call queued before it on
 * any of its keys has settled. Keys are taken in one (sorted) order, so two calls never wait on
 * each other. Waiting here holds nothing, no pooled connection in particular: a transaction's
 * turns (db/pg/transaction.ts) queue here first, and only then wait for other instances' at the
 * database.
 */
export function turnQueue() {
  const last = new Map<string, Promise<void>>();
  const inTurn = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const result = (last.get(key) ?? Promise.resolve()).then(work);
    const settled = result.then(
      () => {},
      () => {},
    );
    last.set(key, settled);
    void settled.then(() => {
      if (last.get(key) === settled) last.delete(key);
    });
    return result;
  };
  return <T>(keys: readonly string[], work: () => Promise<T>): Promise<T> =>
    [...new Set(keys)].sort().reduceRight<() => Promise<T>>((next, key) => () => inTurn(key, next), work)();
}
export type TurnQueue = ReturnType<typeof turnQueue>;
