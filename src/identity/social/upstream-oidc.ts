import type { JWTVerifyGetKey } from "jose";
import * as client from "openid-client";
import { upstreamKeySet, verifyUpstreamIdToken } from "./upstream-id-token.ts";
import { type FlowValues, type UpstreamCtx, type UpstreamIdentity, UpstreamFailure, clientSecretOf, guardedFetch, upstreamFailureOf } from "./upstream.ts";
import type { IdentityProviderRow } from "./social.table.ts";

/** Discovery is kept five minutes; a changed provider (new `updatedAt`) is discovered afresh. */
const DISCOVERY_MS = 5 * 60_000;

/** Named by openid-client when an answer names another issuer than the one configured. */
const ISSUER_COMPLAINT = /"iss"|"issuer"|issuer does not match/;

/** openid-client's codes for an ID token whose claims (aud, exp, iat, nonce...) are not for this sign-in. */
const ID_TOKEN_CLAIMS_REFUSED = ["OAUTH_JWT_CLAIM_COMPARISON_FAILED", "OAUTH_JWT_TIMESTAMP_CHECK_FAILED"];

const classify = (e: unknown) => {
  const failure = upstreamFailureOf(e);
  if (failure.kind !== "rejected") return failure;
  if (ISSUER_COMPLAINT.test(failure.detail)) return new UpstreamFailure("issuer_mismatch", failure.detail);
  if (ID_TOKEN_CLAIMS_REFUSED.includes((e as { code?: string }).code ?? "")) return new UpstreamFailure("unverified", `ID token refused: ${failure.detail}`);
  return failure;
};

/**
 * The provider as openid-client sees it: its discovery document (whose `issuer` must equal the
 * configured one), our client id and secret, and every request through the outbound guard. The
 * secret goes as HTTP Basic unless the provider only takes it in the body.
 */
export async function oidcConfiguration(ctx: UpstreamCtx, provider: IdentityProviderRow): Promise<client.Configuration> {
  return (await discovered(ctx, provider)).config;
}

async function discovered(ctx: UpstreamCtx, provider: IdentityProviderRow): Promise<{ config: client.Configuration; keys: JWTVerifyGetKey }> {
  const key = `${provider.id}:${provider.updatedAt}`;
  const cached = ctx.identity.upstreams.get(key);
  if (cached && ctx.clock.now() - cached.at < DISCOVERY_MS) return cached;
  const customFetch = guardedFetch(ctx);
  // http is for loopback tests alone: the outbound guard refuses it everywhere else.
  const insecure = provider.issuer.startsWith("http:") ? [client.allowInsecureRequests] : [];
  let config: client.Configuration;
  try {
    const found = await client.discovery(new URL(provider.issuer), provider.clientId, undefined, undefined, {
      [client.customFetch]: customFetch,
      execute: insecure,
    });
    const secret = clientSecretOf(ctx, provider);
    const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
    const auth =
      secret === null
        ? client.None()
        : methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
          ? client.ClientSecretPost(secret)
          : client.ClientSecretBasic(secret);
    config = new client.Configuration(found.serverMetadata(), provider.clientId, undefined, auth);
    config[client.customFetch] = customFetch;
    for (const allow of insecure) allow(config);
  } catch (e) {
    throw classify(e);
  }
  for (const old of ctx.identity.upstreams.keys()) if (old.startsWith(`${provider.id}:`)) ctx.identity.upstreams.delete(old);
  const entry = { at: ctx.clock.now(), config, keys: upstreamKeySet(ctx, config.serverMetadata().jwks_uri) };
  ctx.identity.upstreams.set(key, entry);
  return entry;
}

/** Where the browser goes: the provider's authorization endpoint with state, nonce and PKCE (S256). */
export async function oidcAuthorizationUrl(ctx: UpstreamCtx, provider: IdentityProviderRow, flow: FlowValues): Promise<string> {
  const config = await oidcConfiguration(ctx, provider);
  const challenge = await client.calculatePKCECodeChallenge(flow.codeVerifier);
  try {
    // The provider's document may lack a usable authorization endpoint: its answer, refused.
    return client.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      scope: provider.scopes,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }).href;
  } catch (e) {
    throw classify(e);
  }
}

/**
 * The callback: the response's `iss` (RFC 9207) must be the provider's; openid-client redeems
 * the code, and the ID token is verified here (signature by the provider's JWKS, issuer,
 * audience, expiry, nonce). The email comes from the ID token, or from UserInfo when the token
 * leaves it out.
 */
export async function oidcRedeem(ctx: UpstreamCtx, provider: IdentityProviderRow, callback: URL, flow: FlowValues): Promise<UpstreamIdentity> {
  const { config, keys } = await discovered(ctx, provider);
  const expected = config.serverMetadata().issuer;
  const iss = callback.searchParams.get("iss");
  if (iss !== null && iss !== expected) throw new UpstreamFailure("issuer_mismatch", `the answer came from ${iss}, not ${expected}`);
  try {
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { expectedState: flow.state, expectedNonce: flow.nonce, pkceCodeVerifier: flow.codeVerifier, idTokenExpected: true },
      { redirect_uri: flow.redirectUri },
    );
    if (!tokens.id_token) throw new UpstreamFailure("unverified", "the token response carries no ID token");
    let claims: Record<string, unknown> = await verifyUpstreamIdToken(ctx, keys, tokens.id_token, {
      issuer: expected,
      audience: provider.clientId,
      nonce: flow.nonce,
      algorithms: config.serverMetadata().id_token_signing_alg_values_supported,
    });
    if (typeof claims.email !== "string" && config.serverMetadata().userinfo_endpoint)
      claims = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub as string)), ...claims };
    const text = (name: string) => (typeof claims[name] === "string" ? (claims[name] as string) : "");
    return {
      providerUserId: text("sub"),
      login: text("preferred_username"),
      name: text("name"),
      email: text("email"),
      emailVerified: claims.email_verified === true,
    };
  } catch (e) {
    throw classify(e);
  }
}
