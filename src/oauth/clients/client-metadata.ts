import { badInput } from "../../identity/users/identity.errors.ts";
import { AUTH_METHODS, ID_TOKEN_ALGS, MATCH_TYPES } from "../../contract/api/apps.ts";
import { gateRedirectUri, type RedirectEntry, redirectEntryProblem } from "../protocol/redirect-uri.ts";
import { checkRedirectUri, redirectFaultText } from "../../contract/redirect-uri-rules.ts";
import { DEFAULT_CLIENT_SCOPES, isKnownScope, OIDC_FIELDS } from "../../contract/scopes.ts";
import { type OutboundPolicy, unfetchableHost } from "../../shared/safe-fetch.ts";

/** Client metadata as the dashboard and registration APIs take it (spec 1 section 2.1). */
export type ClientInput = {
  name?: string;
  description?: string;
  redirect_uris?: { uri: string; match?: string }[];
  public?: boolean;
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  jwks?: { keys: Record<string, unknown>[] } | null;
  jwks_uri?: string | null;
  id_token_signed_response_alg?: string;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string | null;
  oidc_fields?: string[];
  scopes?: string[];
  /** RFC 9449 section 5.2: every token request must carry a DPoP proof. */
  dpop_bound_access_tokens?: boolean;
  /** RFC 9126 section 6: authorization requests must be pushed first. */
  require_pushed_authorization_requests?: boolean;
  /** RFC 6749 section 4.4: scopes for machine access, names of the app's own API permissions. */
  client_credentials_scopes?: string[];
};

export type ClientMetadata = {
  name: string;
  description: string;
  redirectUris: RedirectEntry[];
  isPublic: boolean;
  tokenEndpointAuthMethod: string;
  grantTypes: string[];
  jwks: { keys: Record<string, unknown>[] } | null;
  jwksUri: string | null;
  idTokenSignedResponseAlg: string;
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  oidcFields: string[];
  scopes: string[];
  dpopBoundAccessTokens: boolean;
  requirePushedAuthorizationRequests: boolean;
  clientCredentialsScopes: string[];
};

/** What the server decides about metadata: the grant types it serves and gives unasked, and where it may fetch. */
export type MetadataRules = { served: readonly string[]; byDefault: readonly string[]; outbound: Pick<OutboundPolicy, "allowLoopback"> };

/**
 * A URL Cairn will fetch itself (jwks_uri, backchannel_logout_uri): https, and not an address the
 * outbound guard would refuse whatever DNS says (an IP literal that is not public, or localhost),
 * so such a URL is refused when registered, not first when used. Names are checked at fetch time.
 */
function fetchableUrl(field: string, value: string, outbound: MetadataRules["outbound"]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badInput(`${field} must be an absolute URL.`);
  }
  if (url.protocol !== "https:" || url.username || url.password || value.includes("#"))
    throw badInput(`${field} must be an https URL without credentials or fragment.`);
  const problem = unfetchableHost(url, outbound);
  if (problem)
    throw badInput(`${field} must be reachable on the public internet: ${problem} (loopback, private, link-local and reserved addresses are refused).`);
  return url.href;
}

function subset(field: string, values: string[], allowed: readonly string[]): string[] {
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length) throw badInput(`${field}: unknown value ${unknown.join(", ")}.`);
  return [...new Set(values)];
}

/** The scopes a client may request: known ones and cross-app `app:<client_id>:*` ones. */
function knownScopes(values: string[]): string[] {
  const unknown = values.filter((v) => !isKnownScope(v));
  if (unknown.length) throw badInput(`scopes: unknown value ${unknown.join(", ")}.`);
  return [...new Set(values)];
}

/** A machine scope names a permission of the app's own API: never one of this server's user, team or site scopes. */
const MACHINE_SCOPE = /^[A-Za-z][A-Za-z0-9_.:/-]{0,63}$/;
function machineScopes(values: string[]): string[] {
  if (values.length > 20) throw badInput("client_credentials_scopes: at most 20.");
  for (const v of values) {
    if (!MACHINE_SCOPE.test(v)) throw badInput(`client_credentials_scopes: ${v} is not a scope name (letters, digits, . _ : / -).`);
    if (isKnownScope(v) || /^(team|site|admin|app):/.test(v))
      throw badInput(`client_credentials_scopes: ${v} is a user scope; machine access takes the app's own API scopes only.`);
  }
  return [...new Set(values)];
}

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "priv"];

/** RFC 7591 section 2: `jwks` holds the client's public keys: RSA, EC or OKP, nothing private, nothing huge. */
function assertPublicJwk(key: Record<string, unknown>): void {
  if (!["RSA", "EC", "OKP"].includes(String(key.kty))) throw badInput("jwks: each key must be an RSA, EC or OKP public key.");
  if (PRIVATE_MEMBERS.some((m) => m in key)) throw badInput("jwks: keys must be public keys; private members are refused.");
  if (JSON.stringify(key).length > 8192) throw badInput("jwks: a key is too large.");
}

/**
 * Validates and completes metadata over `base` (the current values on update), under the
 * server's `rules`. Every refusal names its field.
 */
export function resolveClientMetadata(input: ClientInput, rules: MetadataRules, base?: ClientMetadata): ClientMetadata {
  const name = (input.name ?? base?.name ?? "").trim();
  if (name === "" || name.length > 100) throw badInput("name: 1 to 100 characters.");
  const description = (input.description ?? base?.description ?? "").trim();
  if (description.length > 500) throw badInput("description: at most 500 characters.");

  const redirectUris =
    input.redirect_uris === undefined
      ? (base?.redirectUris ?? [])
      : input.redirect_uris.map((r) => ({ uri: r.uri.trim(), match: (r.match ?? "equals") as RedirectEntry["match"] }));
  if (redirectUris.length > 20) throw badInput("redirect_uris: at most 20.");
  for (const entry of redirectUris) {
    if (!MATCH_TYPES.includes(entry.match)) throw badInput(`redirect_uris: match must be one of ${MATCH_TYPES.join(", ")}.`);
    const problem = redirectEntryProblem(entry, name);
    if (problem) throw badInput(`redirect_uris: ${problem}`);
  }

  const isPublic = input.public ?? (input.token_endpoint_auth_method === undefined ? (base?.isPublic ?? false) : input.token_endpoint_auth_method === "none");
  const method = input.token_endpoint_auth_method ?? (isPublic ? "none" : base && !base.isPublic ? base.tokenEndpointAuthMethod : "client_secret_basic");
  if (!(AUTH_METHODS as readonly string[]).includes(method)) throw badInput(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}.`);
  if (isPublic !== (method === "none")) throw badInput("A public client uses token_endpoint_auth_method none, and only it does.");

  const jwks = input.jwks === undefined ? (base?.jwks ?? null) : input.jwks;
  const jwksUri = input.jwks_uri === undefined ? (base?.jwksUri ?? null) : input.jwks_uri && fetchableUrl("jwks_uri", input.jwks_uri, rules.outbound);
  if (jwks && (!Array.isArray(jwks.keys) || jwks.keys.length === 0 || jwks.keys.length > 10)) throw badInput("jwks: a JWK Set with 1 to 10 keys.");
  if (jwks) for (const key of jwks.keys) assertPublicJwk(key);
  if (jwks && jwksUri) throw badInput("Give jwks or jwks_uri, not both.");
  if (method === "private_key_jwt" && !jwks && !jwksUri) throw badInput("private_key_jwt needs jwks or jwks_uri.");

  const alg = input.id_token_signed_response_alg ?? base?.idTokenSignedResponseAlg ?? "ML-DSA-65";
  if (!(ID_TOKEN_ALGS as readonly string[]).includes(alg)) throw badInput(`id_token_signed_response_alg must be one of ${ID_TOKEN_ALGS.join(", ")}.`);

  const postLogout = input.post_logout_redirect_uris ?? base?.postLogoutRedirectUris ?? [];
  for (const uri of postLogout) {
    const { fault } = checkRedirectUri(uri);
    if (fault) throw badInput(`post_logout_redirect_uris: ${redirectFaultText(fault, uri, { app: name, role: "post_logout" })}`);
  }
  const backchannel =
    input.backchannel_logout_uri === undefined
      ? (base?.backchannelLogoutUri ?? null)
      : input.backchannel_logout_uri && fetchableUrl("backchannel_logout_uri", input.backchannel_logout_uri, rules.outbound);

  return {
    name,
    description,
    redirectUris,
    isPublic,
    tokenEndpointAuthMethod: method,
    grantTypes: subset("grant_types", input.grant_types ?? base?.grantTypes ?? [...rules.byDefault], rules.served),
    jwks,
    jwksUri: jwksUri || null,
    idTokenSignedResponseAlg: alg,
    postLogoutRedirectUris: postLogout.map((u) => gateRedirectUri(u) as string),
    backchannelLogoutUri: backchannel || null,
    oidcFields: subset("oidc_fields", input.oidc_fields ?? base?.oidcFields ?? [], OIDC_FIELDS),
    scopes: knownScopes(input.scopes ?? base?.scopes ?? DEFAULT_CLIENT_SCOPES),
    dpopBoundAccessTokens: input.dpop_bound_access_tokens ?? base?.dpopBoundAccessTokens ?? false,
    requirePushedAuthorizationRequests: input.require_pushed_authorization_requests ?? base?.requirePushedAuthorizationRequests ?? false,
    clientCredentialsScopes: machineScopes(input.client_credentials_scopes ?? base?.clientCredentialsScopes ?? []),
  };
}
