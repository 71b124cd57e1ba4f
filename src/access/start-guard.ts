import { eq, getTableName } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AppContext } from "../context/context.ts";
import { pendingAtCap, storedAtCap } from "../db/pending-cap.ts";
import { tooManyRequests } from "./access.errors.ts";
import { addressKey } from "./window-limit.ts";

/** Pending one-use rows of one kind that anyone may create, at most (each lives minutes). */
export const MAX_PENDING_STARTS = 5_000;
/** How long a start refused for a full table is told to wait. */
const FULL_WAIT_S = 60;

/** Starts an OAuth client makes (a pushed request, a device request): its own rate and ceiling. */
type PerClient = {
  /** The table's column naming the client. */
  column: SQLiteColumn;
  perMinute: number;
  /** Rows of one client stored at most, so one client (whose id may be public) cannot fill the table for all. */
  maxPending: number;
};

/**
 * The gate in front of a one-use row that anyone may create without signing in (a sign-in
 * started, passkey options): at most `perMinute` per client address, and at most
 * MAX_PENDING_STARTS pending in all, so a flood can neither grow the database without bound nor
 * crowd out people. With `perClient`, a start made for a client is also limited per client.
 * With `sweep`, the ceilings count rows stored rather than live (db/pending-cap.ts storedAtCap).
 * Answers null to go ahead, else the seconds to wait. A null address skips the per-address
 * limit (a client that authenticated: its requests come from its own servers).
 */
export function startGuard(
  ctx: Pick<AppContext, "db" | "clock" | "access">,
  {
    perMinute,
    table,
    expiresAt,
    perClient,
    sweep = false,
  }: { perMinute: number; table: SQLiteTable; expiresAt: SQLiteColumn; perClient?: PerClient; sweep?: boolean },
) {
  const name = `start:${getTableName(table)}`;
  const perAddress = ctx.access.windows(name, { max: perMinute, windowMs: 60_000 });
  const clientWindows = perClient && ctx.access.windows(`${name}:client`, { max: perClient.perMinute, windowMs: 60_000 });
  const atCap = sweep ? storedAtCap : pendingAtCap;
  const full = async (now: number, clientId: string | undefined) =>
    (perClient !== undefined && clientId !== undefined && (await atCap(ctx.db, table, expiresAt, now, perClient.maxPending, eq(perClient.column, clientId)))) ||
    (await atCap(ctx.db, table, expiresAt, now, MAX_PENDING_STARTS));
  return async (ip: string | null, clientId?: string): Promise<number | null> => {
    const now = ctx.clock.now();
    return (
      (ip === null ? null : await perAddress.hit(addressKey(ip), now)) ??
      (clientWindows && clientId !== undefined ? await clientWindows.hit(clientId, now) : null) ??
      ((await full(now, clientId)) ? FULL_WAIT_S : null)
    );
  };
}

/**
 * startGuard in front of a row an OAuth client asks for (a pushed request, a device request):
 * limited per client and, for a public client (whose id anyone may send), per address; a
 * confidential client's requests come from its own servers, which may serve several apps. The
 * ceilings count rows stored. Throws 429 `too_many_requests` naming `what`.
 */
export function clientStartGuard(
  ctx: Pick<AppContext, "db" | "clock" | "access">,
  options: { perMinute: number; table: SQLiteTable; expiresAt: SQLiteColumn; perClient: PerClient },
  what: string,
) {
  const mayStart = startGuard(ctx, { ...options, sweep: true });
  return async (client: { clientId: string; isPublic: boolean }, ip: string): Promise<void> => {
    const wait = await mayStart(client.isPublic ? ip : null, client.clientId);
    if (wait !== null) throw tooManyRequests(wait, `Too many ${what}; try again later.`);
  };
}
