import { count, gt } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.ts";

/**
 * True when `table` already holds `cap` rows not yet expired: the ceiling on one-use rows that
 * anyone may create (a pending sign-in, passkey options), so a flood cannot grow the file without
 * bound. Counts at most `cap` index entries.
 */
export function pendingAtCap(db: Db, table: SQLiteTable, expiresAt: SQLiteColumn, now: number, cap: number): boolean {
  const live = db.select({ one: expiresAt }).from(table).where(gt(expiresAt, now)).limit(cap).as("live");
  return (db.select({ n: count() }).from(live).get()?.n ?? 0) >= cap;
}
