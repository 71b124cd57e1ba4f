import { createLocalJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from "jose";
import * as oidc from "openid-client";
import type { AppContext } from "../context/context.ts";
import { badInput } from "../identity/users/identity.errors.ts";
import type { ClientRow } from "../oauth/clients/clients.table.ts";
import { hasConsent, revokeConsent } from "../oauth/consents/consents.service.ts";
import { serverMetadata } from "../oauth/endpoints/discovery.ts";
import { findIntegration } from "./catalog.ts";
import { providerEndpoints } from "./integrations.service.ts";

/** Answers a request inside this process, through every layer a network request meets. */
export type InProcess = (request: Request) => Promise<Response>;

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth">;
type Step = { step: string; ok: boolean; detail: string };

/** The claims an app asks for by default: what a sign-in gives it, without the site's own scopes. */
const SIGN_IN_SCOPES = ["openid", "profile", "email", "offline_access"];

class Stop extends Error {}

/**
 * Signs the owner in to their own app as the app would, against the real endpoints: an
 * authorization request with PKCE (pushed when the app must), consent, the code exchanged with the
 * app's credentials by openid-client (which holds the ID token to the app's algorithm), the ID
 * token verified with the JWKS the app is pointed at, userinfo, and a refresh. Whatever it was
 * granted is revoked at the end; a consent given only for the test is withdrawn again.
 */
export async function testLogin(ctx: Ctx, handle: InProcess, input: { client: ClientRow; userId: string; cookie: string; secret: string | null }) {
  const { client, cookie } = input;
  const steps: Step[] = [];
  const pass = (step: string, detail: string) => steps.push({ step, ok: true, detail });
  const fail = (step: string, detail: string): never => {
    steps.push({ step, ok: false, detail });
    throw new Stop();
  };

  const entry = client.integration ? findIntegration(client.integration) : null;
  const redirectUri = client.redirectUris.find((r) => r.match === "equals")?.uri;
  if (!redirectUri) throw badInput("The app needs an exact redirect URI for a test sign-in.");
  if (!client.grantTypes.includes("authorization_code")) throw badInput("The app does not use the authorization code grant.");
  if (client.tokenEndpointAuthMethod === "private_key_jwt")
    throw badInput("The app signs in with its private key (private_key_jwt), which only the app holds.");
  if (!client.isPublic && !input.secret) throw badInput("client_secret is required: the app authenticates with it.");

  const wanted = entry?.scopes ?? SIGN_IN_SCOPES;
  const scope = ["openid", ...wanted.filter((s) => s !== "openid" && client.scopes.includes(s))].join(" ");
  const meta = serverMetadata(ctx.config);
  const jwksUri = entry ? providerEndpoints(ctx, entry).jwks_uri : meta.jwks_uri;
  const config = new oidc.Configuration(
    meta as unknown as oidc.ServerMetadata,
    client.clientId,
    { id_token_signed_response_alg: client.idTokenSignedResponseAlg },
    client.isPublic
      ? oidc.None()
      : client.tokenEndpointAuthMethod === "client_secret_post"
        ? oidc.ClientSecretPost(input.secret as string)
        : oidc.ClientSecretBasic(input.secret as string),
  );
  config[oidc.customFetch] = (url, options) => handle(new Request(url, options as RequestInit));
  if (new URL(ctx.config.issuer).protocol === "http:") oidc.allowInsecureRequests(config);
  const dpop = client.dpopBoundAccessTokens ? oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair("ES256")) : undefined;
  const consentedBefore = await hasConsent(ctx, input.userId, client.clientId, scope.split(" "));

  let idToken: { alg: string; kid: string | null; jwks_uri: string; claims: JWTPayload } | null = null;
  let userinfo: Record<string, unknown> | null = null;
  const granted: string[] = [];
  try {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const params = {
      redirect_uri: redirectUri,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    };
    const authorizeUrl = await (client.requirePushedAuthorizationRequests
      ? oidc.buildAuthorizationUrlWithPAR(config, params, { DPoP: dpop }).catch(async (e) => fail("Authorization request", await problem(e)))
      : oidc.buildAuthorizationUrl(config, params));
    pass("Authorization request", `${client.requirePushedAuthorizationRequests ? "pushed, then " : ""}sent with PKCE for: ${scope}`);

    const callback = await authorize(ctx, handle, authorizeUrl, cookie, redirectUri, fail);
    pass("Sign-in and consent", consentedBefore ? "you had already allowed this app" : "allowed for this test (withdrawn afterwards)");

    const tokens = await oidc
      .authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true }, undefined, {
        DPoP: dpop,
      })
      .catch(async (e) => fail("Token exchange", await problem(e)));
    granted.push(tokens.access_token, ...(tokens.refresh_token ? [tokens.refresh_token] : []));
    pass(
      "Token exchange",
      `${client.tokenEndpointAuthMethod} accepted; tokens: ${["access", tokens.id_token && "ID", tokens.refresh_token && "refresh"].filter(Boolean).join(", ")}`,
    );

    const jwt = tokens.id_token as string;
    const header = decodeProtectedHeader(jwt);
    const jwksRes = await handle(new Request(jwksUri));
    const jwks = (await jwksRes.json()) as { keys: { kid?: string; kty: string }[] };
    const verified = await jwtVerify(jwt, createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]), {
      issuer: meta.issuer,
      audience: client.clientId,
      algorithms: [client.idTokenSignedResponseAlg],
    }).catch((e) => fail("ID token", `not verified with ${jwksUri}: ${(e as Error).message}`));
    idToken = { alg: String(header.alg), kid: header.kid ?? null, jwks_uri: jwksUri, claims: verified.payload };
    const types = [...new Set(jwks.keys.map((k) => k.kty))].join(", ");
    pass("ID token", `${header.alg}, verified with the key ${header.kid} of ${jwksUri} (key types there: ${types})`);

    userinfo = await oidc
      .fetchUserInfo(config, tokens.access_token, verified.payload.sub as string, { DPoP: dpop })
      .catch(async (e) => fail("Userinfo", await problem(e)));
    pass("Userinfo", `answered for ${userinfo.preferred_username ?? userinfo.sub}`);

    if (tokens.refresh_token) {
      const refreshed = await oidc
        .refreshTokenGrant(config, tokens.refresh_token, undefined, { DPoP: dpop })
        .catch(async (e) => fail("Refresh", await problem(e)));
      granted.push(refreshed.access_token, ...(refreshed.refresh_token ? [refreshed.refresh_token] : []));
      pass("Refresh", "a new access token for the refresh token (which rotated)");
    }
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  } finally {
    for (const token of granted) await oidc.tokenRevocation(config, token).catch(() => undefined);
    if (!consentedBefore) await revokeConsent(ctx, input.userId, client.clientId);
  }

  const seen = { ...(idToken?.claims ?? {}), ...(userinfo ?? {}) };
  return {
    ok: steps.every((s) => s.ok),
    steps,
    id_token: idToken,
    userinfo,
    claims_used: (entry?.claims_used ?? ["sub", "preferred_username", "name", "email"]).map((name) => ({ name, value: seen[name] ?? null })),
  };
}

/**
 * Follows the authorization request as a browser would, with the owner's cookie: straight back
 * to the app when consent was given, else through the consent decision (approved).
 */
async function authorize(
  ctx: Ctx,
  handle: InProcess,
  url: URL,
  cookie: string,
  redirectUri: string,
  fail: (step: string, detail: string) => never,
): Promise<URL> {
  const step = "Sign-in and consent";
  const origin = ctx.config.issuer;
  let res = await handle(new Request(url, { headers: { cookie }, redirect: "manual" }));
  let location = res.headers.get("location");
  if (!location) return fail(step, `the authorization endpoint answered ${res.status}: ${await reason(res)}`);
  const consent = new URL(location, origin);
  if (consent.pathname === "/login") return fail(step, "this sign-in needs you to sign in again (or with a second factor) first");
  if (consent.pathname === "/consent") {
    const id = consent.searchParams.get("interaction") ?? "";
    res = await handle(
      new Request(`${origin}/api/oauth/interaction/${encodeURIComponent(id)}`, {
        method: "POST",
        headers: { cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ decision: "approve" }),
      }),
    );
    if (res.status !== 200) return fail(step, `consent was refused: ${await reason(res)}`);
    location = ((await res.json()) as { redirect_to: string }).redirect_to;
  }
  const back = new URL(location, origin);
  if (`${back.origin}${back.pathname}` !== redirectUri.replace(/\?.*$/, ""))
    return fail(step, `the sign-in went to ${back.origin}${back.pathname}, not the app`);
  const error = back.searchParams.get("error");
  if (error) return fail(step, `${error}: ${back.searchParams.get("error_description") ?? ""}`);
  return back;
}

async function reason(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: string; error_description?: string };
    return [body.error, body.error_description].filter(Boolean).join(": ");
  } catch {
    return text
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 200);
  }
}

/** openid-client's errors as the app's log would show them. */
async function problem(e: unknown): Promise<string> {
  if (e instanceof oidc.ResponseBodyError) return `${e.error}: ${e.error_description ?? ""}`.trim();
  if (e instanceof oidc.AuthorizationResponseError) return `${e.error}: ${e.error_description ?? ""}`.trim();
  // A 401 with a challenge: its body says why (the challenge itself may carry no error).
  if (e instanceof oidc.WWWAuthenticateChallengeError) return `${e.status} ${await reason(e.response)}`;
  return (e as Error).message;
}
