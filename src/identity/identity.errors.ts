import { AppError } from "../shared/errors.ts";

/**
 * Errors of the identity API (`/api/auth`, `/api/oauth/me`, `/api/oauth/admin`): an RFC 6749/6750
 * style code with a human description, `{"error": code, "error_description": text}`.
 */
const fail = (status: number, code: string, description: string, headers?: Record<string, string>) =>
  new AppError(status, code, description, { description, headers });

export const badInput = (description: string) => fail(400, "invalid_request", description);
export const wrongCredentials = () => fail(401, "invalid_credentials", "Wrong username or password.");
/** RFC 9728 section 5.1: a challenge names where the resource's metadata lives. */
const metadataParam = (issuer?: string) => (issuer ? `, resource_metadata="${issuer}/.well-known/oauth-protected-resource"` : "");
export const notSignedIn = (description = "Sign in first.", issuer?: string, credentialPresented = true) =>
  fail(401, "invalid_token", description, {
    "www-authenticate": `Bearer realm="cairn"${credentialPresented ? ', error="invalid_token"' : ""}${metadataParam(issuer)}`,
  });
export const insufficientScope = (scope: string, issuer?: string) =>
  fail(403, "insufficient_scope", `This token lacks the scope ${scope}.`, {
    "www-authenticate": `Bearer realm="cairn", error="insufficient_scope", scope="${scope}"${metadataParam(issuer)}`,
  });
export const denied = (description: string) => fail(403, "forbidden", description);
export const missing = (what: string) => fail(404, "not_found", `${what} not found.`);
export const conflict = (description: string) => fail(409, "conflict", description);
export const tooManyAttempts = (retryAfterSeconds: number) =>
  fail(429, "too_many_attempts", `Too many attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`, {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
/**
 * Password sign-in is paused for an account or address after too many failures; the password
 * with a second factor still passes (so failures cannot lock the owner out), and so does a passkey.
 */
export const signInPaused = (retryAfterSeconds: number) =>
  new AppError(429, "too_many_attempts", "sign-in paused after too many failures", {
    description: `Too many failed sign-ins: password sign-in is paused for ${Math.ceil(retryAfterSeconds / 60)} minute(s). Your password with a code from your authenticator app (or a backup code) still signs you in, and so does a passkey.`,
    headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    fields: { second_factor_accepted: true },
  });
export const stepUpRequired = (issuer?: string) =>
  fail(401, "insufficient_user_authentication", "This needs a sign-in with a second factor: authorize again with acr_values=mfa.", {
    "www-authenticate": `Bearer realm="cairn", error="insufficient_user_authentication", acr_values="mfa"${metadataParam(issuer)}`,
  });
