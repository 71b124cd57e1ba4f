import { and, isNotNull, lt, or } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { webauthnChallenges } from "./passkeys/passkeys.table.ts";
import { passwordResets } from "./password-resets/password-resets.table.ts";
import { mfaTokens, sessions } from "./sessions/sessions.table.ts";
import { socialLoginStates } from "./social/social.table.ts";
import { DEVICE_FORGOTTEN_AFTER_MS } from "./devices/devices.service.ts";
import { knownDevices } from "./devices/known-devices.table.ts";
import { emailVerifications } from "./email-verification/email-verifications.table.ts";

/** Identity's leftovers: second-step tickets, passkey challenges, reset and verification links past their life, sessions long ended, browsers long unseen. */
export function registerIdentityPurges(ctx: Pick<AppContext, "db" | "purges">): void {
  ctx.purges.register("sign-in tickets", (now) => void ctx.db.delete(mfaTokens).where(lt(mfaTokens.expiresAt, now)).run());
  ctx.purges.register("upstream sign-ins", (now) => void ctx.db.delete(socialLoginStates).where(lt(socialLoginStates.expiresAt, now)).run());
  ctx.purges.register("passkey challenges", (now) => void ctx.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)).run());
  // Used or not, a link past its day is done with: the audit log keeps who made and used it.
  ctx.purges.register("password reset links", (now) => void ctx.db.delete(passwordResets).where(lt(passwordResets.expiresAt, now)).run());
  ctx.purges.register("email verification links", (now) => void ctx.db.delete(emailVerifications).where(lt(emailVerifications.expiresAt, now)).run());
  // A browser's mark outlives no cookie: one unseen that long cannot sign in as known again.
  ctx.purges.register(
    "forgotten browsers",
    (now) =>
      void ctx.db
        .delete(knownDevices)
        .where(lt(knownDevices.lastSeenAt, now - DEVICE_FORGOTTEN_AFTER_MS))
        .run(),
  );
  ctx.purges.register("ended sessions", (now) => {
    const ended = now - KEEP_ENDED_MS;
    ctx.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, ended), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ended))))
      .run();
  });
}
