import { describedError } from "../../shared/errors.ts";

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
 * Password sign-in is paused for an account or address after too many failures; the password
 * with a second factor still passes (so failures cannot lock the owner out), and so does a passkey.
 */
export const signInPaused = (retryAfterSeconds: number) =>
  describedError(
    429,
    "too_many_attempts",
    `Too many failed sign-ins: password sign-in is paused for ${Math.ceil(retryAfterSeconds / 60)} minute(s). Your password with a code from your authenticator app (or a backup code) still signs you in, and so does a passkey.`,
    { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    { second_factor_accepted: true },
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
