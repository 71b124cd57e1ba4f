import { AppError } from "../shared/errors.ts";

/**
 * Errors of the identity API (`/api/auth`, `/api/oauth/me`, `/api/oauth/admin`): an RFC 6749/6750
 * style code with a human description, `{"error": code, "error_description": text}`.
 */
const fail = (status: number, code: string, description: string, headers?: Record<string, string>) =>
  new AppError(status, code, description, { description, headers });

export const badInput = (description: string) => fail(400, "invalid_request", description);
export const wrongCredentials = () => fail(401, "invalid_credentials", "Wrong username or password.");
export const notSignedIn = (description = "Sign in first.") =>
  fail(401, "invalid_token", description, { "www-authenticate": 'Bearer realm="cairn", error="invalid_token"' });
export const insufficientScope = (scope: string) =>
  fail(403, "insufficient_scope", `This token lacks the scope ${scope}.`, {
    "www-authenticate": `Bearer realm="cairn", error="insufficient_scope", scope="${scope}"`,
  });
export const denied = (description: string) => fail(403, "forbidden", description);
export const missing = (what: string) => fail(404, "not_found", `${what} not found.`);
export const conflict = (description: string) => fail(409, "conflict", description);
export const tooManyAttempts = (retryAfterSeconds: number) =>
  fail(429, "too_many_attempts", `Too many attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`, {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
