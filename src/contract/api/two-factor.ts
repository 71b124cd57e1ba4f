import { type Static, Type } from "@sinclair/typebox";
import { oneOf, orNull } from "./common.ts";
import { ClientBadge } from "./authorization.ts";

/**
 * The 2FA re-confirmation API (`/api/oauth/2fa`, spec 1 sections 3.3 and 3.4): an app's challenge,
 * the confirmation page's questions and answer, the code's redemption, and the remembered ("sudo")
 * confirmations of the account and app pages.
 */

/** How a person confirms; `sudo` is a remembered confirmation, not a factor. */
export const ConfirmMethod = oneOf(["totp", "passkey", "backup", "sudo"]);
export type ConfirmMethod = Static<typeof ConfirmMethod>;
export const CaptchaProvider = oneOf(["none", "pow", "hcaptcha", "turnstile", "recaptcha"]);
export type CaptchaProvider = Static<typeof CaptchaProvider>;

/** `POST /api/oauth/2fa/challenges` (201): where the app sends the person. */
export const CreatedChallenge = Type.Object({
  challenge_id: Type.String(),
  /** Seconds since the epoch. */
  expires_at: Type.Number(),
  url: Type.String(),
});
export type CreatedChallenge = Static<typeof CreatedChallenge>;

/** `GET /api/oauth/2fa/info`: what the confirmation page shows. */
export const ChallengeInfo = Type.Object({
  client: ClientBadge,
  action: Type.String(),
  expires_at: Type.Number(),
  methods: Type.Array(oneOf(["totp", "passkey", "backup"])),
  sudo_available: Type.Boolean(),
  sudo_expires_at: orNull(Type.Number()),
  sudo_ttl_minutes: Type.Number(),
  captcha_required: Type.Boolean(),
  captcha_provider: CaptchaProvider,
  captcha_site_key: orNull(Type.String()),
  /** The proof of work to solve, when that is the captcha. */
  pow: Type.Optional(Type.Object({ challenge: Type.String(), difficulty: Type.Number() })),
});
export type ChallengeInfo = Static<typeof ChallengeInfo>;

/** `POST /api/oauth/2fa/authorize`: back to the app, with a code, or with access_denied and why. */
export const ConfirmAnswer = Type.Object({
  redirect_to: Type.String(),
  error: Type.Optional(Type.Literal("access_denied")),
  error_description: Type.Optional(Type.String()),
});
export type ConfirmAnswer = Static<typeof ConfirmAnswer>;

/** `POST /api/oauth/2fa/verify`: the redeemed code's confirmation, for the app that asked. */
export const VerifiedConfirmation = Type.Object({
  user_id: orNull(Type.String()),
  client_id: Type.String(),
  /** Seconds since the epoch. */
  verified_at: Type.Number(),
  action: Type.String(),
  nonce: orNull(Type.String()),
  method: orNull(ConfirmMethod),
});
export type VerifiedConfirmation = Static<typeof VerifiedConfirmation>;

/** `POST /api/oauth/2fa/sudo/revoke`: whether a remembered confirmation was there to end. */
export const EndedSudo = Type.Object({ ok: Type.Literal(true), ended: Type.Boolean() });
export type EndedSudo = Static<typeof EndedSudo>;

/** A remembered confirmation for one app on one signed-in device. */
export const SudoWindow = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  session_id: Type.String(),
  this_device: Type.Boolean(),
  user_agent: Type.String(),
  created_at: Type.Number(),
  expires_at: Type.Number(),
});
export type SudoWindow = Static<typeof SudoWindow>;
export const SudoWindowList = Type.Object({ windows: Type.Array(SudoWindow) });
export type SudoWindowList = Static<typeof SudoWindowList>;

/** A challenge an app asked for, as its page lists it (never who confirmed it). */
export const AppChallenge = Type.Object({
  created_at: Type.Number(),
  action: Type.String(),
  status: oneOf(["created", "expired", "approved", "closed", "redeemed"]),
  method: orNull(ConfirmMethod),
  verified_at: orNull(Type.Number()),
  captcha: Type.Boolean(),
});
export type AppChallenge = Static<typeof AppChallenge>;
export const AppChallengeList = Type.Object({ challenges: Type.Array(AppChallenge) });
export type AppChallengeList = Static<typeof AppChallengeList>;
