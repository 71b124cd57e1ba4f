import { lt, or, and, isNotNull } from "drizzle-orm";
import { purgeOldHits } from "../auth/rate-limit.ts";
import { mfaTokens, sessions } from "../auth/sessions.table.ts";
import type { AppContext } from "../context.ts";
import { webauthnChallenges } from "../identity/passkeys/passkeys.table.ts";

const KEEP_ENDED_SESSIONS_MS = 30 * 86_400_000;

/** Deletes what can no longer be used: expired one-use tickets, old limit hits, long-ended sessions. */
export function purgeExpired(ctx: Pick<AppContext, "db" | "clock">): void {
  const now = ctx.clock.now();
  purgeOldHits(ctx.db, now);
  ctx.db.delete(mfaTokens).where(lt(mfaTokens.expiresAt, now)).run();
  ctx.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)).run();
  const ended = now - KEEP_ENDED_SESSIONS_MS;
  ctx.db.delete(sessions).where(or(lt(sessions.expiresAt, ended), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ended)))).run();
}
