import { assertUnderLimit, type Limit, recordHit } from "../../access/rate-limit.ts";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { withTx } from "../../db/tx.ts";
import { txScope } from "../../db/tx-gate.ts";

type Turns = Map<string, Promise<void>>;

/** The last attempt queued on each bucket, per database (see withBucketsQueued). */
const turnsOf = (_db: Db): Turns => new Map();

/** Runs `work` once every call queued on `key` before it has settled. */
function inTurn<T>(turns: Turns, key: string, work: () => Promise<T>): Promise<T> {
  const result = (turns.get(key) ?? Promise.resolve()).then(work);
  const settled = result.then(
    () => {},
    () => {},
  );
  turns.set(key, settled);
  void settled.then(() => {
    if (turns.get(key) === settled) turns.delete(key);
  });
  return result;
}

/**
 * Runs `fn`, which checks `buckets` against their limits and counts hits in them, in one
 * transaction, so parallel attempts each see the others' hits. The attempts of this process queue
 * on their buckets first (taken in one order, so two never wait on each other): on PostgreSQL,
 * SERIALIZABLE transactions that each read a bucket and add to it fail all but one of a burst,
 * more often than retrying absorbs, and a transaction waiting for a lock would hold a pooled
 * connection meanwhile; queued here, each waits holding nothing, and only other processes'
 * attempts can still conflict (retried). On SQLite the gate orders them anyway. Inside another
 * transaction it does not queue: waiting here could wait for that transaction itself.
 */
export function withBucketsQueued<T>(db: Db, buckets: string[], fn: () => Promise<T>): Promise<T> {
  const frame = txScope.getStore();
  if (frame?.connection === db && frame.open) return withTx(db, fn);
  const turns = prepared(db, turnsOf);
  const queued = [...new Set(buckets)].sort().reduceRight<() => Promise<T>>(
    (next, bucket) => () => inTurn(turns, bucket, next),
    () => withTx(db, fn),
  );
  return queued();
}

/** Checks that `bucket` is under its limit (429 when not) and counts one attempt; answers the hit's id, so an attempt that turns out right can take it back. */
export function countAttempt(db: Db, bucket: string, limit: Limit, now: number): Promise<number> {
  return withBucketsQueued(db, [bucket], async () => {
    await assertUnderLimit(db, bucket, limit, now);
    return recordHit(db, bucket, now);
  });
}
