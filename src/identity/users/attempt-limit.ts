import { assertUnderLimit, type Limit, recordHit } from "../../access/rate-limit.ts";
import type { Db } from "../../db/client.ts";
import { withTx } from "../../db/tx.ts";

/**
 * Runs `fn`, which checks `buckets` against their limits and counts hits in them, in one
 * transaction that takes the buckets' turns (db/client.ts TxTurn), so parallel attempts each see
 * the others' hits: on PostgreSQL, SERIALIZABLE transactions that each read a bucket and add to
 * it would otherwise fail all but one of a burst, more often than running again absorbs. On
 * SQLite one writer at a time orders them anyway.
 */
export function withBucketsQueued<T>(db: Db, buckets: string[], fn: () => Promise<T>): Promise<T> {
  return withTx(db, fn, { turn: buckets.map((bucket) => `attempts:${bucket}`) });
}

/** Checks that `bucket` is under its limit (429 when not) and counts one attempt; answers the hit's id, so an attempt that turns out right can take it back. */
export function countAttempt(db: Db, bucket: string, limit: Limit, now: number): Promise<number> {
  return withBucketsQueued(db, [bucket], async () => {
    await assertUnderLimit(db, bucket, limit, now);
    return recordHit(db, bucket, now);
  });
}
