import type { AppContext } from "../../context/context.ts";
import { AppError } from "../../shared/errors.ts";
import { invalidClientMetadata, invalidRedirectUri, invalidRegistrationToken, invalidRequest } from "../protocol/oauth.errors.ts";
import { constantTimeEqual, randomToken, sha256Hex } from "../../shared/crypto.ts";
import type { ClientInput } from "./client-metadata.ts";
import { createClient, deleteClient, findClient, replaceClientMetadata, rotateRegistrationToken } from "./clients.service.ts";
import type { ClientRow } from "./clients.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth" | "outbound">;

/** RFC 7591 section 2 metadata as this server reads it. */
export type RegistrationRequest = {
  client_name?: string;
  redirect_uris?: string[];
  scope?: string;
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
  jwks?: { keys: Record<string, unknown>[] };
  jwks_uri?: string;
  id_token_signed_response_alg?: string;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
  dpop_bound_access_tokens?: boolean;
  require_pushed_authorization_requests?: boolean;
};

/** RFC 7591 section 3.2.2 errors: the redirect URIs, or any other metadata. */
function registrationError(e: unknown): never {
  if (e instanceof AppError && e.error === "invalid_request") {
    const text = e.extra.description ?? "invalid metadata";
    throw text.startsWith("redirect_uris") || text.startsWith("post_logout") ? invalidRedirectUri(text) : invalidClientMetadata(text);
  }
  throw e;
}

function toClientInput(body: RegistrationRequest): ClientInput {
  if (body.response_types?.some((t) => t !== "code")) registrationError(invalidRequest("response_types: only code is supported"));
  const input: ClientInput = { name: body.client_name ?? "Registered app" };
  if (body.redirect_uris) input.redirect_uris = body.redirect_uris.map((uri) => ({ uri, match: "equals" }));
  if (body.scope !== undefined) input.scopes = body.scope.split(" ").filter(Boolean);
  if (body.token_endpoint_auth_method !== undefined) input.token_endpoint_auth_method = body.token_endpoint_auth_method;
  if (body.grant_types !== undefined) input.grant_types = body.grant_types;
  if (body.jwks !== undefined) input.jwks = body.jwks;
  if (body.jwks_uri !== undefined) input.jwks_uri = body.jwks_uri;
  // OpenID Connect Dynamic Client Registration 1.0 section 2: omitted, the ID token alg is RS256
  // (what every RP library verifies). Spec 1 section 2.5's ML-DSA-65 stays the dashboard's default.
  input.id_token_signed_response_alg = body.id_token_signed_response_alg ?? "RS256";
  if (body.post_logout_redirect_uris !== undefined) input.post_logout_redirect_uris = body.post_logout_redirect_uris;
  if (body.backchannel_logout_uri !== undefined) input.backchannel_logout_uri = body.backchannel_logout_uri;
  if (body.dpop_bound_access_tokens !== undefined) input.dpop_bound_access_tokens = body.dpop_bound_access_tokens;
  if (body.require_pushed_authorization_requests !== undefined) input.require_pushed_authorization_requests = body.require_pushed_authorization_requests;
  return input;
}

/** The client information response (RFC 7591 section 3.2.1), without secrets unless given. */
function information(ctx: Ctx, c: ClientRow, secrets: { client_secret?: string | null; registration_access_token?: string } = {}) {
  return {
    client_id: c.clientId,
    ...(secrets.client_secret ? { client_secret: secrets.client_secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(c.createdAt / 1000),
    ...(secrets.registration_access_token ? { registration_access_token: secrets.registration_access_token } : {}),
    registration_client_uri: `${ctx.config.issuer}/api/oauth/register/${c.clientId}`,
    client_name: c.name,
    redirect_uris: c.redirectUris.map((r) => r.uri),
    token_endpoint_auth_method: c.tokenEndpointAuthMethod,
    grant_types: c.grantTypes,
    response_types: ["code"],
    scope: c.scopes.join(" "),
    id_token_signed_response_alg: c.idTokenSignedResponseAlg,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    ...(c.jwks ? { jwks: c.jwks } : {}),
    ...(c.jwksUri ? { jwks_uri: c.jwksUri } : {}),
    ...(c.backchannelLogoutUri ? { backchannel_logout_uri: c.backchannelLogoutUri } : {}),
    dpop_bound_access_tokens: c.dpopBoundAccessTokens,
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
  };
}

/** RFC 7591: registers a client for the user behind the initial access token. */
export async function registerClient(ctx: Ctx, ownerUserId: string, body: RegistrationRequest) {
  const token = randomToken(32);
  try {
    const { client, secret } = await createClient(ctx, ownerUserId, toClientInput(body), { registrationTokenHash: sha256Hex(token) });
    return information(ctx, client, { client_secret: secret, registration_access_token: token });
  } catch (e) {
    registrationError(e);
  }
}

/** RFC 7592 section 2: the client named in the path, when the Bearer is its registration access token. */
export async function clientForRegistrationToken(ctx: Ctx, clientId: string, authorization: string | null): Promise<ClientRow> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  const client = await findClient(ctx, clientId);
  if (!token || !client?.registrationTokenHash || !constantTimeEqual(sha256Hex(token), client.registrationTokenHash))
    throw invalidRegistrationToken("bad registration access token");
  return client;
}

/** RFC 7592 section 2.1; the registration access token is rotated and answered (section 3). */
export const readRegistration = async (ctx: Ctx, client: ClientRow) =>
  information(ctx, client, { registration_access_token: await rotateRegistrationToken(ctx, client) });

/** RFC 7592 section 2.2: the request replaces the client's metadata; omitted fields take defaults. */
export async function replaceRegistration(ctx: Ctx, client: ClientRow, body: RegistrationRequest & { client_id?: string }) {
  if (body.client_id !== undefined && body.client_id !== client.clientId) registrationError(invalidRequest("client_id does not match"));
  try {
    const replaced = await replaceClientMetadata(ctx, client, toClientInput(body));
    return information(ctx, replaced.client, {
      client_secret: replaced.secret,
      registration_access_token: await rotateRegistrationToken(ctx, replaced.client),
    });
  } catch (e) {
    registrationError(e);
  }
}

export async function deleteRegistration(ctx: Ctx, client: ClientRow): Promise<void> {
  await deleteClient(ctx, client);
}
