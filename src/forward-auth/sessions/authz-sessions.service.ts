import type { AppContext } from "../../context/context.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { authzSessions } from "./authz-sessions.table.ts";

/**
 * A new forward auth cookie for a Cairn session: a random value (never the session JWT: the apps
 * behind the proxy can read it), kept hashed, ending when the session would end now. The session
 * slides on use, so it never ends sooner, unless something ends it, which ends this one too.
 */
export async function mintAuthzSession(
  ctx: Pick<AppContext, "db" | "clock">,
  session: { id: string; expiresAt: number },
): Promise<{ token: string; maxAgeSeconds: number }> {
  const token = randomToken(32);
  const now = ctx.clock.now();
  await ctx.db
    .insert(authzSessions)
    .values({ tokenHash: sha256Hex(token), sessionId: session.id, createdAt: now, expiresAt: session.expiresAt })
    .run();
  return { token, maxAgeSeconds: Math.max(0, Math.floor((session.expiresAt - now) / 1000)) };
}
