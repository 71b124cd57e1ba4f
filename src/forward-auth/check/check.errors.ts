import { describedError } from "../../shared/errors.ts";

/**
 * Errors of forward auth's check and continue endpoints, in RFC 6749's shape
 * (`{"error": "invalid_request", "error_description": ...}`). The check's ordinary answers (302,
 * 401, 403) are no errors: they carry no JSON (check.answers.ts).
 */
export const badForwardedRequest = (description: string) => describedError(400, "invalid_request", description);

/** `GET /api/authz/continue` goes only where a rule names the host: no open redirect. */
export const notProtectedApp = () =>
  describedError(400, "invalid_request", "url: not a protected app (no forward auth rule names its host), so Cairn does not send you there.");
