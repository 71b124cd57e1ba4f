import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { deleteBefore } from "../db/batch-delete.ts";
import { webauthnChallenges } from "./passkeys/passkeys.table.ts";
import { passwordResets } from "./password-resets/password-resets.table.ts";
import { mfaTokens, sessions } from "./sessions/sessions.table.ts";
import { socialLoginStates } from "./social/social.table.ts";

/** Identity's leftovers: second-step tickets, passkey challenges and reset links past their life, sessions long ended. */
export function registerIdentityPurges(ctx: Pick<AppContext, "db" | "purges">): void {
  const { db, purges } = ctx;
  purges.register("sign-in tickets", deleteBefore(db, mfaTokens, mfaTokens.expiresAt));
  purges.register("upstream sign-ins", deleteBefore(db, socialLoginStates, socialLoginStates.expiresAt));
  purges.register("passkey challenges", deleteBefore(db, webauthnChallenges, webauthnChallenges.expiresAt));
  // Used or not, a link past its day is done with: the audit log keeps who made and used it.
  purges.register("password reset links", deleteBefore(db, passwordResets, passwordResets.expiresAt));
  // Expired or revoked a while ago: two steps, each through its own index.
  purges.register("expired sessions", deleteBefore(db, sessions, sessions.expiresAt, KEEP_ENDED_MS));
  purges.register("revoked sessions", deleteBefore(db, sessions, sessions.revokedAt, KEEP_ENDED_MS));
}
