import { and, count, gt, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.ts";

/**
 * True when `table` already holds `cap` rows not yet expired: the ceiling on one-use rows that
 * anyone may create (a pending sign-in, passkey options), so a flood cannot grow the file without
 * bound. Counts at most `cap` index entries. `among` narrows the count (one client's rows).
 */
export async function pendingAtCap(db: Db, table: SQLiteTable, expiresAt: SQLiteColumn, now: number, cap: number, among?: SQL): Promise<boolean> {
  const live = db
    .select({ one: expiresAt })
    .from(table)
    .where(and(gt(expiresAt, now), among))
    .limit(cap)
    .as("live");
  return ((await db.select({ n: count() }).from(live).get())?.n ?? 0) >= cap;
}

/**
 * Like pendingAtCap, but the ceiling is on rows stored, expired or not: the purge job runs every
 * 10 minutes, and a kind that expires sooner (a pushed request lives 90 s) would pile up far past
 * the cap in between. When full, the table's expired rows are deleted first (what the purge would
 * do later), then the live ones decide.
 */
export async function storedAtCap(db: Db, table: SQLiteTable, expiresAt: SQLiteColumn, now: number, cap: number, among?: SQL): Promise<boolean> {
  const stored = db.select({ one: expiresAt }).from(table).where(among).limit(cap).as("stored");
  if (((await db.select({ n: count() }).from(stored).get())?.n ?? 0) < cap) return false;
  await db.delete(table).where(lte(expiresAt, now)).run();
  return pendingAtCap(db, table, expiresAt, now, cap, among);
}
