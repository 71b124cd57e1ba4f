import { lt, or, and, isNotNull } from "drizzle-orm";
import { purgeOldHits } from "../auth/rate-limit.ts";
import { mfaTokens, sessions } from "../identity/sessions/sessions.table.ts";
import type { AppContext } from "../context/context.ts";
import { webauthnChallenges } from "../identity/passkeys/passkeys.table.ts";
import { accessTokens, assertionJtis, authorizationCodes, interactions, oauthGrants, refreshTokens } from "../oauth/tokens/tokens.table.ts";
import { wsLoginStates, wsSessions } from "../workspace/signin/signin.table.ts";

const KEEP_ENDED_SESSIONS_MS = 30 * 86_400_000;

/** Deletes what can no longer be used: expired one-use tickets, old limit hits, long-ended sessions. */
export function purgeExpired(ctx: Pick<AppContext, "db" | "clock">): void {
  const now = ctx.clock.now();
  purgeOldHits(ctx.db, now);
  ctx.db.delete(mfaTokens).where(lt(mfaTokens.expiresAt, now)).run();
  ctx.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)).run();
  // OAuth leftovers: one-use things past their life, and grants long ended.
  ctx.db.delete(interactions).where(lt(interactions.expiresAt, now)).run();
  ctx.db.delete(authorizationCodes).where(lt(authorizationCodes.expiresAt, now - 86_400_000)).run();
  ctx.db.delete(assertionJtis).where(lt(assertionJtis.expiresAt, now)).run();
  ctx.db.delete(accessTokens).where(lt(accessTokens.expiresAt, now)).run();
  ctx.db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now)).run();
  ctx.db.delete(wsLoginStates).where(lt(wsLoginStates.expiresAt, now)).run();
  const ended = now - KEEP_ENDED_SESSIONS_MS;
  ctx.db.delete(wsSessions).where(lt(wsSessions.expiresAt, ended)).run();
  ctx.db.delete(oauthGrants).where(and(isNotNull(oauthGrants.revokedAt), lt(oauthGrants.revokedAt, ended))).run();
  ctx.db.delete(sessions).where(or(lt(sessions.expiresAt, ended), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ended)))).run();
}
