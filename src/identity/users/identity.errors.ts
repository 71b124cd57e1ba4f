import { describedError } from "../../shared/errors.ts";
import { minutesOf } from "../../shared/wording.ts";

/**
 * Errors of the identity API (`/api/auth`, `/api/oauth/me`, `/api/oauth/admin`): an RFC 6749/6750
 * style code with a human description, `{"error": code, "error_description": text}`. The
 * challenges of RFC 6750 and the generic 403 and 429 are the access kernel's (access/access.errors.ts).
 */
export const badInput = (description: string) => describedError(400, "invalid_request", description);
export const wrongCredentials = () => describedError(401, "invalid_credentials", "Wrong username or password.");
export const missing = (what: string) => describedError(404, "not_found", `${what} not found.`);
export const conflict = (description: string) => describedError(409, "conflict", description);

/**
 * What else signs in while password sign-in is paused: the factors the account has (none for an
 * unknown one, alike), or `if-any` when the pause is the address's and not the account's.
 */
export type OtherWaysIn = { totp: boolean; passkey: boolean } | "if-any";

/** The sentence on other ways in, naming only what the account has. */
function otherWaysInText(others: OtherWaysIn): string {
  if (others === "if-any")
    return "If your account has an authenticator app, your password with a code from it (or a backup code) still signs you in, and so does a passkey if you have one.";
  if (others.totp)
    return `Your password with a code from your authenticator app (or a backup code) still signs you in${others.passkey ? ", and so does your passkey" : ""}.`;
  return others.passkey ? "Your passkey still signs you in." : "Try again after that.";
}

/**
 * Password sign-in is paused for an account or address after too many failures; the password
 * with a second factor still passes (so failures cannot lock the owner out), and so does a passkey.
 * Only what the account has is offered: no one is promised a factor they never set up.
 */
export const signInPaused = (retryAfterSeconds: number, others: OtherWaysIn) =>
  describedError(
    429,
    "too_many_attempts",
    `Too many failed sign-ins${others === "if-any" ? " from this address" : ""}: password sign-in is paused for ${minutesOf(retryAfterSeconds)}. ${otherWaysInText(others)}`,
    { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    // Whether the password with a code passes: the sign-in page then asks for one.
    { second_factor_accepted: others === "if-any" || others.totp === true },
  );

/** Deleting the last active administrator (spec 1 section 2.3) would leave the instance without one. */
export const lastActiveAdministrator = () => conflict("This is the last active administrator: make someone else an administrator first.");

/** Deleting the only owner of teams would leave each without one: they are named, so another owner can be made first. */
export const teamsWithoutOwner = (teams: { id: string; name: string }[]) => {
  const one = teams.length === 1;
  const names = teams.map((t) => `“${t.name}”`).join(", ");
  return describedError(
    409,
    "conflict",
    `${one ? "A team" : "Teams"} would be left without an owner: ${names}. Make someone else owner of ${one ? "it" : "each"}, or delete ${one ? "it" : "them"}, first.`,
    undefined,
    { teams },
  );
};
