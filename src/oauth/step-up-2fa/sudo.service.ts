import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { sessions } from "../../identity/sessions/sessions.table.ts";
import { oauthClients } from "../clients/clients.table.ts";
import { sudoWindows } from "./step-up.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
/** One window: spec 1 section 3.4 keys it by user, sign-in session (device) and app. */
export type SudoKey = { userId: string; sessionId: string; clientId: string };

const keyed = (k: SudoKey) => and(eq(sudoWindows.userId, k.userId), eq(sudoWindows.sessionId, k.sessionId), eq(sudoWindows.clientId, k.clientId));

/** The window's end (ms) when it is active, else null. A new session (after logout) has another id: its windows are unreachable. */
export function activeSudoUntil(ctx: Ctx, k: SudoKey): number | null {
  const row = ctx.db
    .select({ expiresAt: sudoWindows.expiresAt })
    .from(sudoWindows)
    .where(and(keyed(k), gt(sudoWindows.expiresAt, ctx.clock.now())))
    .get();
  return row?.expiresAt ?? null;
}

/** Opens (or renews) the window for `minutes`. */
export function openSudoWindow(ctx: Ctx, k: SudoKey, minutes: number): number {
  const now = ctx.clock.now();
  const expiresAt = now + minutes * 60_000;
  ctx.db
    .insert(sudoWindows)
    .values({ ...k, createdAt: now, expiresAt })
    .onConflictDoUpdate({ target: [sudoWindows.userId, sudoWindows.sessionId, sudoWindows.clientId], set: { createdAt: now, expiresAt } })
    .run();
  return expiresAt;
}

/** Ends the window early; true when there was one. */
export function endSudoWindow(ctx: Ctx, k: SudoKey): boolean {
  return changedRows(ctx.db.delete(sudoWindows).where(keyed(k)).run()) > 0;
}

/** The user's active windows on their live sessions, for the account page. */
export function listSudoWindows(ctx: Ctx, userId: string, currentSessionId: string | null) {
  const now = ctx.clock.now();
  return ctx.db
    .select({ w: sudoWindows, clientName: oauthClients.name, userAgent: sessions.userAgent })
    .from(sudoWindows)
    .innerJoin(sessions, eq(sessions.id, sudoWindows.sessionId))
    .innerJoin(oauthClients, eq(oauthClients.clientId, sudoWindows.clientId))
    .where(and(eq(sudoWindows.userId, userId), gt(sudoWindows.expiresAt, now), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sudoWindows.expiresAt))
    .all()
    .map(({ w, clientName, userAgent }) => ({
      client_id: w.clientId,
      client_name: clientName,
      session_id: w.sessionId,
      this_device: w.sessionId === currentSessionId,
      user_agent: userAgent,
      created_at: w.createdAt,
      expires_at: w.expiresAt,
    }));
}
