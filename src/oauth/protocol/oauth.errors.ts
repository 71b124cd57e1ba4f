import { AppError } from "../../shared/errors.ts";

/**
 * RFC 6749 section 5.2 errors: `{error, error_description}`, 400 (401 with a challenge for a
 * client that failed to authenticate). The mapper adds `Cache-Control: no-store`.
 */
const oauthError = (code: string, status = 400, headers?: Record<string, string>) => (description: string) =>
  new AppError(status, code, description, { description, headers });

export const invalidRequest = oauthError("invalid_request");
export const invalidGrant = oauthError("invalid_grant");
export const unauthorizedClient = oauthError("unauthorized_client");
export const unsupportedGrantType = oauthError("unsupported_grant_type");
export const invalidScope = oauthError("invalid_scope");
/** RFC 6749 section 5.2: 401 with a challenge in the client-authentication scheme (Basic). */
export const invalidClient = oauthError("invalid_client", 401, { "www-authenticate": 'Basic realm="cairn"' });
