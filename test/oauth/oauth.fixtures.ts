import * as client from "openid-client";
import { parseTokenKey } from "../../src/oauth/tokens/token-key.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type jarFetch, readAnswer } from "../helpers/cookie-jar.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { authorizeInBrowser, discover, REDIRECT, registerApp } from "../helpers/oauth.ts";

export { REDIRECT };
export const AUTHORIZE = "/api/oauth/authorize";
export const TOKEN = "/api/oauth/token";

/** A fresh PKCE pair (RFC 7636 section 4.1-4.2). */
export async function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** A raw authorization URL path with exactly the given query (repeats allowed as [key, value] pairs). */
export function authorizePath(params: Record<string, string> | [string, string][]): string {
  return `${AUTHORIZE}?${new URLSearchParams(params).toString()}`;
}

/** The browser's GET of `path` with the user's cookies, not following redirects. */
export async function visit(user: SignedUp | ReturnType<typeof jarFetch>, path: string) {
  const browser = "browser" in user ? user.browser : user;
  const res = await browser.fetch(path);
  return { status: res.status, location: res.headers.get("location"), headers: res.headers, body: await res.text() };
}

/** The client-side parameters of a redirect back to the client. */
export function callbackParams(location: string | null): URLSearchParams {
  if (location === null) throw new Error("no redirect");
  return new URL(location).searchParams;
}

/** POST to the token-family endpoint `path` as a raw form, optionally with Basic credentials. */
export async function postForm(
  app: Pick<TestApp, "url">,
  path: string,
  form: Record<string, string> | [string, string][] | string,
  init: { basic?: [string, string]; contentType?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "content-type": init.contentType ?? "application/x-www-form-urlencoded", ...init.headers };
  if (init.basic) headers.authorization = basicAuth(...init.basic);
  return readAnswer(await fetch(app.url + path, { method: "POST", headers, body: typeof form === "string" ? form : new URLSearchParams(form).toString() }));
}

/** RFC 6749 section 2.3.1: each part form-urlencoded, then Base64. */
export const basicAuth = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** A confidential app of `owner` with openid-client configured for it (client_secret_basic unless told). */
export async function confidentialApp(app: TestApp, owner: SignedUp, body: Record<string, unknown> = {}, auth?: "basic" | "post") {
  const registered = await registerApp(owner, body);
  const secret = registered.client_secret as string;
  const config = await discover(app, registered.client_id, secret, {}, auth === "post" ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret));
  return { ...registered, client_secret: secret, config };
}

/**
 * The usual cast of an OAuth test file: a fresh app, the owner of a confidential client, and a
 * user who signs in to it. `startApp` options pass through (a manual clock, say), and `rpBody`
 * is the client's registration metadata (grant types, say).
 */
export async function startOAuthWorld(options: Parameters<typeof startApp>[0] = {}, rpBody: Record<string, unknown> = {}) {
  const app = await startApp(options);
  const owner = await signUp(app, "owner");
  const user = await signUp(app, "alice");
  return { app, owner, user, rp: await confidentialApp(app, owner, rpBody) };
}

/** A public app (PKCE, no secret) with openid-client configured for it. */
export async function publicApp(app: TestApp, owner: SignedUp, body: Record<string, unknown> = {}) {
  const registered = await registerApp(owner, { public: true, ...body });
  return { ...registered, config: await discover(app, registered.client_id, undefined) };
}

export type RegisteredApp = Awaited<ReturnType<typeof confidentialApp>>;

/**
 * Runs the user agent's part of the code flow and answers the raw code and what the client
 * needs to redeem it. Consent is approved when asked.
 */
export async function authorizeCode(user: SignedUp, rp: { config: client.Configuration }, scope: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = await pkce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp.config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
    ...extra,
  });
  const callback = await authorizeInBrowser(user, url);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code: ${callback.href}`);
  return { code, verifier, state, callback };
}

/** A full code flow through openid-client: the token response. */
export async function obtainTokens(user: SignedUp, rp: { config: client.Configuration }, scope: string, extra: Record<string, string> = {}) {
  const { verifier, state, callback } = await authorizeCode(user, rp, scope, extra);
  return client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state });
}

/** A code flow with raw token requests (for tests on a manual clock, where openid-client's own time checks would interfere). */
export async function obtainTokensRaw(app: TestApp, user: SignedUp, rp: RegisteredApp, scope: string) {
  const { code, verifier } = await authorizeCode(user, rp, scope);
  const res = await postForm(
    app,
    TOKEN,
    { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier },
    { basic: [rp.client_id, rp.client_secret] },
  );
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data as { access_token: string; refresh_token?: string; id_token?: string; scope: string; expires_in: number; token_type: string };
}

/** The row id a token issued now carries (`<kind><id>.<secret>`, the id sealed), to reach its row by hand. */
export function tokenRowId(app: TestApp, token: string): number {
  const key = parseTokenKey(app.ctx.oauth.tokenIds, token);
  if (!key || key.kind === "legacy") throw new Error(`not a token with an id: ${token}`);
  return key.id;
}

/** Bearer call on the resource API with an access token (no cookies). */
export function withToken(app: TestApp, token: string) {
  return (method: string, path: string, body?: unknown) => app.client().json(method, path, body, { authorization: `Bearer ${token}` });
}

/** Signs `user` in again in the same browser (cookie jar): a new session with a new auth_time. */
export async function signInAgain(user: SignedUp) {
  const res = await user.browser.json("POST", "/api/auth/login", { login: user.user.username, password: PASSWORD });
  if (res.status !== 200 || !res.data.session_token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res;
}

/** The interaction id in a `/login?return_to=/api/oauth/interaction/<id>/resume` or `/consent?interaction=<id>` location. */
export function interactionIdOf(location: string): string {
  const url = new URL(location, "http://x");
  const direct = url.searchParams.get("interaction");
  if (direct) return direct;
  const back = url.searchParams.get("return_to") ?? "";
  const match = /^\/api\/oauth\/interaction\/([^/]+)\/resume$/.exec(back);
  if (!match) throw new Error(`no interaction in ${location}`);
  return match[1] as string;
}

/** The error code openid-client reports for a failed call (OAuth `error`), or the message. */
export async function oauthErrorOf(promise: Promise<unknown>): Promise<{ error: string; status?: number; description?: string }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof client.ResponseBodyError) return { error: e.error, status: e.status, description: e.error_description };
    if (e instanceof client.AuthorizationResponseError) return { error: e.error, description: e.error_description };
    if (e instanceof client.WWWAuthenticateChallengeError) return { error: e.cause[0]?.parameters.error ?? "challenge", status: e.status };
    throw e;
  }
  throw new Error("expected the call to fail");
}
