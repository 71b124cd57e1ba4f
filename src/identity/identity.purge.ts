import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { deleteBefore } from "../db/batch-delete.ts";
import { webauthnChallenges } from "./passkeys/passkeys.table.ts";
import { passwordResets } from "./password-resets/password-resets.table.ts";
import { mfaTokens, sessions } from "./sessions/sessions.table.ts";
import { socialLoginStates } from "./social/social.table.ts";
import { DEVICE_FORGOTTEN_AFTER_MS } from "./devices/devices.service.ts";
import { knownDevices } from "./devices/known-devices.table.ts";
import { emailVerifications } from "./email-verification/email-verifications.table.ts";

/** Identity's leftovers: second-step tickets, passkey challenges, reset and verification links past their life, sessions long ended, browsers long unseen. */
export function registerIdentityPurges(ctx: Pick<AppContext, "db" | "purges">): void {
  const { db, purges } = ctx;
  purges.register("sign-in tickets", deleteBefore(db, mfaTokens, mfaTokens.expiresAt));
  purges.register("upstream sign-ins", deleteBefore(db, socialLoginStates, socialLoginStates.expiresAt));
  purges.register("passkey challenges", deleteBefore(db, webauthnChallenges, webauthnChallenges.expiresAt));
  // Used or not, a link past its day is done with: the audit log keeps who made and used it.
  purges.register("password reset links", deleteBefore(db, passwordResets, passwordResets.expiresAt));
  purges.register("email verification links", deleteBefore(db, emailVerifications, emailVerifications.expiresAt));
  // A browser's mark outlives no cookie: one unseen that long cannot sign in as known again.
  purges.register("forgotten browsers", deleteBefore(db, knownDevices, knownDevices.lastSeenAt, DEVICE_FORGOTTEN_AFTER_MS));
  // Expired or revoked a while ago: two steps, each through its own index.
  purges.register("expired sessions", deleteBefore(db, sessions, sessions.expiresAt, KEEP_ENDED_MS));
  purges.register("revoked sessions", deleteBefore(db, sessions, sessions.revokedAt, KEEP_ENDED_MS));
}
