import { assertUnderLimit, type Limit, recordHit } from "../../access/rate-limit.ts";
import type { Db } from "../../db/client.ts";
import { withTx } from "../../db/tx.ts";

/**
 * Checks that `bucket` is under its limit (429 when not) and counts one attempt, in one
 * transaction: other requests' statements wait at its gate, so parallel attempts each see the
 * others' hits, as when check and count ran without a pause between them. Answers the hit's id,
 * so an attempt that turns out right can take it back.
 */
export function countAttempt(db: Db, bucket: string, limit: Limit, now: number): Promise<number> {
  return withTx(db, async () => {
    await assertUnderLimit(db, bucket, limit, now);
    return recordHit(db, bucket, now);
  });
}
