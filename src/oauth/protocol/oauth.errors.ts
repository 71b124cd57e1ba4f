import { rfcError } from "../../shared/errors.ts";
import { DPOP_ALGS } from "./dpop.ts";

/**
 * The public description per code, as node-oidc-provider words them: for the grant, the client
 * and the scope, exactly what was wrong (a code issued to another client, a PKCE mismatch, which
 * auth method a client uses) stays in the private detail, which the error mapper logs. An
 * invalid_request names the malformed parameter: that is about the caller's own request.
 */
const PUBLIC = {
  invalid_grant: "grant request is invalid",
  invalid_client: "client authentication failed",
  unauthorized_client: "the client is not authorized to use the requested grant type",
  unsupported_grant_type: "unsupported grant_type requested",
  invalid_scope: "requested scope is invalid",
} as const;

/** The one public text invalid_client answers beyond the fixed one: a client's owner must see why its keys fail. */
export const JWKS_UNREACHABLE = "client assertion refused: the client's jwks_uri could not be fetched";

/**
 * RFC 6749 section 5.2 errors: `{error, error_description}`, 400 (401 with a challenge for a
 * client that failed to authenticate), with the private detail for the log. The mapper adds
 * `Cache-Control: no-store`.
 */
const oauthError =
  (code: keyof typeof PUBLIC, status = 400, headers?: Record<string, string>) =>
  (detail: string, description: string = PUBLIC[code]) =>
    rfcError(code, status, detail, { description, headers });

/** invalid_request and the RFC 7591 codes: the description is the detail, naming the parameter at fault. */
const describedOAuthError =
  (code: string, status = 400) =>
  (description: string) =>
    rfcError(code, status, description, { description });

export const invalidRequest = describedOAuthError("invalid_request");
/** RFC 8707 section 2: a `resource` that is not an absolute URI without fragment, or not one granted. */
export const invalidTarget = describedOAuthError("invalid_target");
/** RFC 9126 section 2.3: a pushed request refused with the code the authorization endpoint would have used. */
export const pushedRequestError = (code: string, description: string) => describedOAuthError(code)(description);
/** RFC 7591 section 3.2.2: a redirect URI, or any other metadata, refused at registration. */
export const invalidRedirectUri = describedOAuthError("invalid_redirect_uri");
export const invalidClientMetadata = describedOAuthError("invalid_client_metadata");
/** Content-Type other than JSON on the registration endpoint. */
export const unsupportedMediaType = (description: string) => describedOAuthError("invalid_request", 415)(description);
export const invalidGrant = oauthError("invalid_grant");
export const unauthorizedClient = oauthError("unauthorized_client");
export const unsupportedGrantType = oauthError("unsupported_grant_type");
export const invalidScope = oauthError("invalid_scope");
/** RFC 6749 section 5.2: 401 with a challenge in the client-authentication scheme (Basic). */
export const invalidClient = oauthError("invalid_client", 401, { "www-authenticate": 'Basic realm="cairn"' });
/** RFC 7592 section 2: the registration access token is missing or not this client's. */
export const invalidRegistrationToken = (detail: string) =>
  rfcError("invalid_token", 401, detail, {
    description: "The registration access token is missing or not valid for this client.",
    headers: { "www-authenticate": 'Bearer realm="cairn", error="invalid_token"' },
  });

/** RFC 9449 section 5: a token request's proof refused (400), with a fresh nonce when one is needed. */
export const dpopTokenError = (code: "invalid_dpop_proof" | "use_dpop_nonce", description: string, nonce?: string) =>
  rfcError(code, 400, description, { description, headers: nonce ? { "dpop-nonce": nonce } : undefined });

/** RFC 9449 section 7.1: a resource's 401 with a DPoP challenge naming the error and the algorithms. */
export const dpopResourceError = (issuer: string, code: "invalid_token" | "invalid_dpop_proof" | "use_dpop_nonce", description: string, nonce?: string) =>
  rfcError(code, 401, description, {
    description,
    headers: {
      "www-authenticate": `DPoP realm="cairn", error="${code}", algs="${DPOP_ALGS.join(" ")}", resource_metadata="${issuer}/.well-known/oauth-protected-resource"`,
      ...(nonce ? { "dpop-nonce": nonce } : {}),
    },
  });

// RFC 8628 section 3.5: the device-code poll's answers, each with its fixed public text.
export const authorizationPending = (detail: string) =>
  rfcError("authorization_pending", 400, detail, { description: "the user has not yet approved or denied the request" });
export const slowDown = (interval: number) =>
  rfcError("slow_down", 400, `polled faster than the interval; now ${interval} s`, { description: `poll no faster than every ${interval} seconds` });
export const accessDenied = (detail: string) => rfcError("access_denied", 400, detail, { description: "the user denied the request" });
export const expiredToken = (detail: string) => rfcError("expired_token", 400, detail, { description: "the device code has expired; start again" });

/** Every user code tried was taken: RFC 6749's temporarily_unavailable, to retry a second later. */
export const noFreeUserCode = (tries: number) =>
  rfcError("temporarily_unavailable", 503, `no free user code in ${tries} tries`, {
    description: "Could not allocate a user code; try again.",
    headers: { "retry-after": "1" },
  });

/** A request that would leave a row behind is refused past its size, with 413 in RFC 6749 JSON. */
export const requestTooLarge = (bytes: number, max: number) =>
  rfcError("invalid_request", 413, `the request has ${bytes} bytes`, { description: `the request is too large (at most ${max} bytes)` });
