import type { ClientRow } from "../clients/clients.table.ts";
import { CHALLENGE } from "../protocol/pkce.ts";
import { matchRedirectUri } from "../protocol/redirect-uri.ts";
import { gateRedirectUri } from "../protocol/redirect-uri.ts";
import { checkResources, resourceProblem } from "../protocol/resource.ts";
import { parseScope } from "../protocol/scope.ts";
import { REPEATABLE } from "./form.ts";

/** A validated authorization request (spec 1 section 4.2), as kept while the user signs in and consents. */
export type AuthorizeRequest = {
  client_id: string;
  redirect_uri: string;
  scope: string;
  state?: string;
  nonce?: string;
  code_challenge?: string;
  prompt?: string;
  max_age?: string;
  acr_values?: string;
  /** RFC 8707 resources, space-separated (a URI has no spaces). */
  resource?: string;
};

/** An error the client should hear at its redirect URI (`redirect`), or only the user on a page. */
export class AuthorizeError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly redirect: boolean,
  ) {
    super(description);
  }
}

const PROMPTS = new Set(["none", "login", "consent"]);

/**
 * Checks an authorization request in RFC order: the client and the redirect URI first (until
 * both are known good, errors stay on our page), then the rest, which go back to the client.
 * Scopes are reduced to those the client may request.
 */
export function validateAuthorizeRequest(params: URLSearchParams, client: ClientRow | null): { request: AuthorizeRequest; lockRedirect: boolean } {
  // RFC 6749 section 3.1: no parameter more than once. A repeated client_id or redirect_uri leaves
  // us nowhere we may send the user, so it stays on our page; any other waits until they are verified.
  const repeated = [...new Set(params.keys())].filter((key) => params.getAll(key).length > 1 && !REPEATABLE.has(key));
  for (const key of ["client_id", "redirect_uri"])
    if (repeated.includes(key)) throw new AuthorizeError("invalid_request", `parameter "${key}" is repeated`, false);
  if (!params.get("client_id")) throw new AuthorizeError("invalid_request", 'missing required parameter "client_id"', false);
  if (!client) throw new AuthorizeError("invalid_client", "unknown client_id", false);
  const redirectUri = params.get("redirect_uri");
  if (!redirectUri) throw new AuthorizeError("invalid_request", 'missing required parameter "redirect_uri"', false);
  // Kept while the user signs in: bounded like a registered one.
  if (redirectUri.length > 2048) throw new AuthorizeError("invalid_request", "redirect_uri is too long", false);
  // Spec 2.2 rule 2: an app registered without redirect URIs is locked to its first one.
  const lockRedirect = client.redirectUris.length === 0;
  if (lockRedirect ? gateRedirectUri(redirectUri) === null : matchRedirectUri(client.redirectUris, redirectUri) === null)
    throw new AuthorizeError("invalid_request", `redirect_uri ${redirectUri} is not registered for this client`, false);

  // An app whose list is still empty is not locked yet: no URI is verified, so errors stay on our page.
  const fail = (error: string, description: string) => new AuthorizeError(error, description, !lockRedirect);
  if (repeated.length > 0) throw fail("invalid_request", `parameter "${repeated[0]}" is repeated`);
  // RFC 6749 section 4.1.2.1: the response type decides the flow, so it is judged before any
  // other parameter (an unsupported response_mode with it is still unsupported_response_type).
  const responseType = params.get("response_type");
  if (!responseType) throw fail("invalid_request", 'missing required parameter "response_type"');
  if (responseType !== "code") throw fail("unsupported_response_type", "only response_type=code is supported");
  // OIDC Core 6.1/6.2 and discovery: request objects are not supported, and only the query response mode.
  if (params.has("request")) throw fail("request_not_supported", "request objects are not supported");
  if (params.has("request_uri")) throw fail("request_uri_not_supported", "request_uri is not supported");
  const responseMode = params.get("response_mode");
  if (responseMode !== null && responseMode !== "query") throw fail("invalid_request", "response_mode must be query");
  if (!client.grantTypes.includes("authorization_code")) throw fail("unauthorized_client", "this client may not use the authorization code grant");

  const requested = parseScope(params.get("scope") ?? "");
  if (requested === null) throw fail("invalid_scope", "scope contains a malformed token");
  const scopes = requested.filter((s) => client.scopes.includes(s));
  if (scopes.length === 0) throw fail("invalid_scope", "none of the requested scopes is allowed for this client");

  const challenge = params.get("code_challenge");
  const method = params.get("code_challenge_method");
  if (challenge !== null || method !== null) {
    if (method !== "S256") throw fail("invalid_request", "code_challenge_method must be S256 (plain is not accepted)");
    if (challenge === null || !CHALLENGE.test(challenge)) throw fail("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)");
  } else if (client.isPublic) throw fail("invalid_request", "a public client must use PKCE (code_challenge with S256)");

  const prompt = params.get("prompt") ?? undefined;
  const prompts = prompt?.split(" ").filter(Boolean) ?? [];
  if (prompts.some((p) => !PROMPTS.has(p)) || (prompts.includes("none") && prompts.length > 1))
    throw fail("invalid_request", "prompt must be none, or any of login and consent");
  const maxAge = params.get("max_age") ?? undefined;
  if (maxAge !== undefined && !/^\d{1,9}$/.test(maxAge)) throw fail("invalid_request", "max_age must be a whole number of seconds");
  const nonce = params.get("nonce") ?? undefined;
  const state = params.get("state") ?? undefined;
  if ((nonce?.length ?? 0) > 512 || (state?.length ?? 0) > 2048) throw fail("invalid_request", "state or nonce is too long");

  const resources = checkResources(params.getAll("resource"));
  if ("bad" in resources) throw fail("invalid_target", resourceProblem(resources.bad));

  const request: AuthorizeRequest = { client_id: client.clientId, redirect_uri: redirectUri, scope: scopes.join(" ") };
  if (resources.resources.length) request.resource = resources.resources.join(" ");
  if (state !== undefined) request.state = state;
  if (nonce !== undefined) request.nonce = nonce;
  if (challenge !== null) request.code_challenge = challenge;
  if (prompts.length) request.prompt = prompts.join(" ");
  if (maxAge !== undefined) request.max_age = maxAge;
  const acr = params.get("acr_values");
  if (acr) request.acr_values = acr;
  return { request, lockRedirect };
}

/** The client's redirect URI with the response parameters and RFC 9207 `iss` added. */
export function redirectWith(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  url.searchParams.set("iss", issuer);
  return url.href;
}
