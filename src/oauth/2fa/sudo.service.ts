import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { sessions } from "../../identity/sessions/sessions.table.ts";
import { getSiteConfig, sudoOffAt } from "../../identity/site-config/site-config.ts";
import { oauthClients } from "../clients/clients.table.ts";
import { sudoWindows } from "./2fa.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
/** One window: spec 1 section 3.4 keys it by user, sign-in session (device) and app. */
export type SudoKey = { userId: string; sessionId: string; clientId: string };

const keyed = (k: SudoKey) => and(eq(sudoWindows.userId, k.userId), eq(sudoWindows.sessionId, k.sessionId), eq(sudoWindows.clientId, k.clientId));

/**
 * The window's end (ms) when it is active, else null. A new session (after logout) has another
 * id: its windows are unreachable. The site's current length bounds windows opened under a
 * longer one (an admin who shortens it shortens them); 0 ends them all, for good.
 */
export async function activeSudoUntil(ctx: Ctx, k: SudoKey): Promise<number | null> {
  const row = await ctx.db.select({ createdAt: sudoWindows.createdAt, expiresAt: sudoWindows.expiresAt }).from(sudoWindows).where(keyed(k)).get();
  return row ? windowEnd(ctx, row) : null;
}

async function windowEnd(ctx: Ctx, w: { createdAt: number; expiresAt: number }): Promise<number | null> {
  const ttl = (await getSiteConfig(ctx)).sudo_mode_ttl_minutes;
  if (ttl <= 0 || w.createdAt <= (await sudoOffAt(ctx))) return null;
  const until = Math.min(w.expiresAt, w.createdAt + ttl * 60_000);
  return until > ctx.clock.now() ? until : null;
}

/** Opens (or renews) the window for `minutes`. */
export async function openSudoWindow(ctx: Ctx, k: SudoKey, minutes: number): Promise<number> {
  const now = ctx.clock.now();
  const expiresAt = now + minutes * 60_000;
  await ctx.db
    .insert(sudoWindows)
    .values({ ...k, createdAt: now, expiresAt })
    .onConflictDoUpdate({ target: [sudoWindows.userId, sudoWindows.sessionId, sudoWindows.clientId], set: { createdAt: now, expiresAt } })
    .run();
  return expiresAt;
}

/** Ends the window early; true when there was one. */
export async function endSudoWindow(ctx: Ctx, k: SudoKey): Promise<boolean> {
  return changedRows(await ctx.db.delete(sudoWindows).where(keyed(k)).run()) > 0;
}

/** The user's active windows on their live sessions, for the account page. */
export async function listSudoWindows(ctx: Ctx, userId: string, currentSessionId: string | null) {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select({ w: sudoWindows, clientName: oauthClients.name, userAgent: sessions.userAgent })
    .from(sudoWindows)
    .innerJoin(sessions, eq(sessions.id, sudoWindows.sessionId))
    .innerJoin(oauthClients, eq(oauthClients.clientId, sudoWindows.clientId))
    .where(and(eq(sudoWindows.userId, userId), gt(sudoWindows.expiresAt, now), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sudoWindows.expiresAt))
    .all();
  const windows = [];
  for (const { w, clientName, userAgent } of rows) {
    const end = await windowEnd(ctx, w);
    if (end === null) continue;
    windows.push({
      client_id: w.clientId,
      client_name: clientName,
      session_id: w.sessionId,
      this_device: w.sessionId === currentSessionId,
      user_agent: userAgent,
      created_at: w.createdAt,
      expires_at: end,
    });
  }
  return windows;
}
