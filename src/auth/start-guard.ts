import { getTableName } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AppContext } from "../context/context.ts";
import { pendingAtCap } from "../db/pending-cap.ts";
import { addressKey } from "./window-limit.ts";

/** Pending one-use rows of one kind that anyone may create, at most (each lives minutes). */
export const MAX_PENDING_STARTS = 5_000;

/**
 * The gate in front of a one-use row that anyone may create without signing in (a sign-in
 * started, passkey options): at most `perMinute` per client address, and at most
 * MAX_PENDING_STARTS pending in all, so a flood can neither grow the database without bound nor
 * crowd out people. Answers null to go ahead, else the seconds to wait.
 */
export function startGuard(
  ctx: Pick<AppContext, "db" | "clock" | "auth">,
  { perMinute, table, expiresAt }: { perMinute: number; table: SQLiteTable; expiresAt: SQLiteColumn },
) {
  const perAddress = ctx.auth.windows(`start:${getTableName(table)}`, { max: perMinute, windowMs: 60_000 });
  return async (ip: string): Promise<number | null> => {
    const now = ctx.clock.now();
    return (await perAddress.hit(addressKey(ip), now)) ?? (pendingAtCap(ctx.db, table, expiresAt, now, MAX_PENDING_STARTS) ? 60 : null);
  };
}
