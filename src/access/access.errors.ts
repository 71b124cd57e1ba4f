import { describedError, expectedRefusal } from "../shared/errors.ts";
import { minutesOf } from "../shared/wording.ts";

/** RFC 9728 section 5.1: a challenge names where the resource's metadata lives. */
const metadataParam = (issuer?: string) => (issuer ? `, resource_metadata="${issuer}/.well-known/oauth-protected-resource"` : "");

/**
 * RFC 6750 section 3: 401 with a Bearer challenge; no error code when no credential was sent at
 * all, which is then an expected answer rather than a refusal worth an info line (issue 42).
 */
export const notSignedIn = (description = "Sign in first.", issuer?: string, credentialPresented = true) => {
  const error = describedError(401, "invalid_token", description, {
    "www-authenticate": `Bearer realm="cairn"${credentialPresented ? ', error="invalid_token"' : ""}${metadataParam(issuer)}`,
  });
  return credentialPresented ? error : expectedRefusal(error);
};

/**
 * RFC 6750 section 3.1: the token lacks a scope. Given alternatives, the challenge names the first
 * (its `scope` lists what is needed together) and the description names them all.
 */
export const insufficientScope = (scope: string | readonly string[], issuer?: string) => {
  const [first, ...others] = typeof scope === "string" ? [scope] : scope;
  const or = others.length ? ` (or ${others.join(", or ")})` : "";
  return describedError(403, "insufficient_scope", `This token lacks the scope ${first}${or}.`, {
    "www-authenticate": `Bearer realm="cairn", error="insufficient_scope", scope="${first}"${metadataParam(issuer)}`,
  });
};

/** What a resource demands of the sign-in behind a token (RFC 9470 section 3). */
export type StepUp = { acr?: "mfa"; maxAge?: number };

/** RFC 9470 section 3: the resource needs a stronger or more recent sign-in; the challenge says which. */
export const stepUpRequired = (issuer: string | undefined, need: StepUp = { acr: "mfa" }) => {
  const asks = [need.acr ? `acr_values=${need.acr}` : null, need.maxAge !== undefined ? `max_age=${need.maxAge}` : null].filter(Boolean).join(" and ");
  const params = `${need.acr ? `, acr_values="${need.acr}"` : ""}${need.maxAge !== undefined ? `, max_age=${need.maxAge}` : ""}`;
  return describedError(401, "insufficient_user_authentication", `This needs a stronger or more recent sign-in: authorize again with ${asks}.`, {
    "www-authenticate": `Bearer realm="cairn", error="insufficient_user_authentication"${params}${metadataParam(issuer)}`,
  });
};

/** Signed in, but not allowed this (a token where a session is needed, not an admin, a cross-site write). */
export const denied = (description: string) => describedError(403, "forbidden", description);

/** 429 with Retry-After. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  describedError(429, "too_many_attempts", `Too many attempts. Try again in ${minutesOf(retryAfterSeconds)}.`, {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** 429 with Retry-After for a client (not a person) that asked too often: RFC 6749 JSON, `too_many_requests`. */
export const tooManyRequests = (retryAfterSeconds: number, description: string) =>
  describedError(429, "too_many_requests", description, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
