import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { deleteBefore, type PurgeStep } from "../db/batch-delete.ts";
import type { Db } from "../db/client.ts";
import { tooManyAttempts } from "./access.errors.ts";
import { rateLimitHits } from "./rate-limits.table.ts";

export type Limit = { max: number; windowMs: number };

/** Login failures: 10 in 15 minutes per account and per client address. */
export const LOGIN_FAILURES: Limit = { max: 10, windowMs: 15 * 60_000 };
/** Spec 1 section 8: 8 TOTP attempts per 5 minutes per user. */
export const TOTP_ATTEMPTS: Limit = { max: 8, windowMs: 5 * 60_000 };

/** Seconds until `bucket` is under its limit again, or null when it is under it now. */
export async function secondsUntilFree(db: Db, bucket: string, limit: Limit, now: number): Promise<number | null> {
  const since = now - limit.windowMs;
  const hits = await db
    .select({ at: rateLimitHits.at })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, bucket), gt(rateLimitHits.at, since)))
    .orderBy(asc(rateLimitHits.at))
    .all();
  if (hits.length < limit.max) return null;
  // Free again when enough of the oldest hits have left the window.
  const freeAt = (hits[hits.length - limit.max]?.at ?? now) + limit.windowMs;
  return (freeAt - now) / 1000;
}

/** Throws 429 with Retry-After when `bucket` already holds `max` hits inside the window. */
export async function assertUnderLimit(db: Db, bucket: string, limit: Limit, now: number): Promise<void> {
  const wait = await secondsUntilFree(db, bucket, limit, now);
  if (wait !== null) throw tooManyAttempts(wait);
}

/** Records one hit; returns its id, so a hit counted ahead of time can be taken back. */
export async function recordHit(db: Db, bucket: string, now: number): Promise<number> {
  const [row] = await db.insert(rateLimitHits).values({ bucket, at: now }).returning({ id: rateLimitHits.id }).all();
  return row?.id ?? 0;
}

export async function forgetHits(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, ids)).run();
}

export async function clearBucket(db: Db, bucket: string): Promise<void> {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.bucket, bucket)).run();
}

/** The purge of hits older than any window (the purge job runs it, context/purges.ts). */
export const oldHitsPurge = (db: Db, olderThanMs = 24 * 3600_000): PurgeStep => deleteBefore(db, rateLimitHits, rateLimitHits.at, olderThanMs);
