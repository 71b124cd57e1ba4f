import { and, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { SessionPrincipal } from "../../access/principal.ts";
import { changedRows } from "../../db/changes.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { verifyPasskeyAssertion } from "../../identity/passkeys/passkeys.service.ts";
import { getSiteConfig } from "../../identity/site-config/site-config.ts";
import { useBackupCode, verifyTotp } from "../../identity/totp/totp.service.ts";
import { badInput } from "../../identity/users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import { AppError } from "../../shared/errors.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { type CaptchaAnswer, captchaRequired, passCaptcha } from "./captcha.ts";
import { appRedirect, type ChallengeRow, CODE_TTL_MS, confirmationMethods, NO_SECOND_FACTOR, powBinding } from "./challenges.service.ts";
import { challengeGone } from "./2fa.errors.ts";
import { twoFactorChallenges } from "./2fa.table.ts";
import { activeSudoUntil, openSudoWindow } from "./sudo.service.ts";
import type { ConfirmAnswer } from "../../contract/api/two-factor.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "oauth">;
type Method = "totp" | "passkey" | "backup" | "sudo";

/** ARCHITECTURE section 4 `POST /api/oauth/2fa/authorize`. */
export type ConfirmInput = CaptchaAnswer & {
  challenge_id: string;
  state?: string;
  decision: "approve" | "reject";
  confirmed?: boolean;
  method?: Method;
  code?: string;
  passkey?: { challenge_id: string; response: unknown };
  remember_sudo?: boolean;
};

/** Spec 1 section 3.3 "user rejects, or an error occurs": closed, and the app hears access_denied. */
async function close(ctx: Ctx, row: ChallengeRow, from: "created" | "checking", state: string | undefined, why: string): Promise<ConfirmAnswer> {
  const closed = await ctx.db
    .update(twoFactorChallenges)
    .set({ status: "closed" })
    .where(and(eq(twoFactorChallenges.idHash, row.idHash), eq(twoFactorChallenges.status, from)))
    .run();
  // Answered meanwhile by a concurrent request: that one tells the app.
  if (changedRows(closed) !== 1) throw challengeGone();
  return { redirect_to: appRedirect(row, state, { error: "access_denied" }), error: "access_denied", error_description: why };
}

/** Takes the challenge for one confirmation: of concurrent ones exactly one gets it. */
async function claim(ctx: Ctx, row: ChallengeRow): Promise<void> {
  const taken = await ctx.db
    .update(twoFactorChallenges)
    .set({ status: "checking" })
    .where(and(eq(twoFactorChallenges.idHash, row.idHash), eq(twoFactorChallenges.status, "created"), gt(twoFactorChallenges.expiresAt, ctx.clock.now())))
    .run();
  if (changedRows(taken) !== 1) throw challengeGone();
}

/** Checks the factor; false for a wrong one. Too many TOTP attempts is a 429 (no attempt was made). */
async function factorHolds(ctx: Ctx, userId: string, method: Exclude<Method, "sudo">, input: ConfirmInput): Promise<boolean> {
  if (method === "totp") return verifyTotp(ctx, userId, input.code ?? "");
  if (method === "backup") return useBackupCode(ctx, userId, input.code ?? "");
  if (!input.passkey) return false;
  try {
    await verifyPasskeyAssertion(ctx, input.passkey as never, userId, "step-up");
    return true;
  } catch (e) {
    if (e instanceof AppError && e.status === 400) return false;
    throw e;
  }
}

const WRONG: Record<Exclude<Method, "sudo">, string> = {
  totp: "That code is not right.",
  backup: "That backup code is not right or was already used.",
  passkey: "The passkey could not be verified.",
};

/**
 * The user's answer on the confirmation page (spec 1 sections 3.3 and 3.4). Rejecting closes the
 * challenge; approving needs the ticked confirmation, the captcha when the gate is on (never for
 * sudo) and the factor. A wrong factor uses the challenge up: the app must ask again.
 */
export async function confirmChallenge(ctx: Ctx, principal: SessionPrincipal, input: ConfirmInput, remoteIp: string): Promise<ConfirmAnswer> {
  const userId = principal.user.id;
  const row = await ctx.db
    .select()
    .from(twoFactorChallenges)
    .where(eq(twoFactorChallenges.idHash, sha256Hex(input.challenge_id)))
    .get();
  if (row?.status !== "created") throw challengeGone();
  if (row.expiresAt <= ctx.clock.now()) return close(ctx, row, "created", input.state, "The confirmation request expired.");
  if (input.decision === "reject") {
    const answer = await close(ctx, row, "created", input.state, "You did not confirm the action.");
    await audit(ctx, { actorUserId: userId, action: "2fa.rejected", targetUserId: userId, details: { client_id: row.clientId } });
    return answer;
  }

  if (input.confirmed !== true) throw badInput("Tick the box to confirm the action first.");
  const methods = await confirmationMethods(ctx, userId);
  if (!methods.includes("totp") && !methods.includes("passkey")) throw denied(NO_SECOND_FACTOR);
  const method = input.method;
  if (method === undefined) throw badInput("Choose how to confirm: totp, passkey, backup or sudo.");
  const config = await getSiteConfig(ctx);
  if (method === "sudo") {
    const sudo = { userId, sessionId: principal.session.id, clientId: row.clientId };
    if ((await activeSudoUntil(ctx, sudo)) === null)
      throw badInput("No confirmation is remembered for this app on this device any more. Confirm with a code or a passkey.");
  } else {
    if (!methods.includes(method)) throw badInput(`You have no ${method === "backup" ? "backup codes" : method} to confirm with.`);
    if (method !== "passkey" && !input.code) throw badInput("Enter the code.");
    if (method === "passkey" && !input.passkey) throw badInput("Use your passkey first.");
    // The sudo bypass never meets the captcha; every other way does when the gate is on.
    if (captchaRequired(config, row.requireCaptcha)) await passCaptcha(ctx, config, powBinding(row), input, remoteIp);
  }

  await claim(ctx, row);
  if (method !== "sudo") {
    let holds: boolean;
    try {
      holds = await factorHolds(ctx, userId, method, input);
    } catch (e) {
      // Past the attempt limit nothing was tried: the challenge is given back.
      if (e instanceof AppError && e.status === 429) {
        await ctx.db
          .update(twoFactorChallenges)
          .set({ status: "created" })
          .where(and(eq(twoFactorChallenges.idHash, row.idHash), eq(twoFactorChallenges.status, "checking")))
          .run();
        throw e;
      }
      // Anything else is "an error occurs" of table 3.3: closed, and the app hears access_denied.
      ctx.log.warn("2FA factor check failed", { client_id: row.clientId, method, error: String(e) });
      return close(ctx, row, "checking", input.state, "The confirmation could not be checked. The application has to ask again.");
    }
    if (!holds) {
      await audit(ctx, { actorUserId: userId, action: "2fa.failed", targetUserId: userId, details: { client_id: row.clientId, method } });
      return close(ctx, row, "checking", input.state, `${WRONG[method]} This confirmation is used up; the application has to ask again.`);
    }
  }

  const code = randomToken(32);
  const now = ctx.clock.now();
  const approved = await ctx.db
    .update(twoFactorChallenges)
    .set({ status: "approved", userId, method, verifiedAt: now, codeHash: sha256Hex(code), codeExpiresAt: now + CODE_TTL_MS })
    .where(and(eq(twoFactorChallenges.idHash, row.idHash), eq(twoFactorChallenges.status, "checking")))
    .run();
  if (changedRows(approved) !== 1) throw challengeGone();
  // Spec 1 section 3.4: only a real TOTP or passkey confirmation opens a window.
  if (input.remember_sudo === true && config.sudo_mode_ttl_minutes > 0 && (method === "totp" || method === "passkey"))
    await openSudoWindow(ctx, { userId, sessionId: principal.session.id, clientId: row.clientId }, config.sudo_mode_ttl_minutes);
  await audit(ctx, { actorUserId: userId, action: "2fa.confirmed", targetUserId: userId, details: { client_id: row.clientId, method } });
  return { redirect_to: appRedirect(row, input.state, { code }) };
}
