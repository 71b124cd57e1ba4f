import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { generate } from "otplib";
import * as client from "openid-client";
import type { TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import {
  authorizePath,
  callbackParams,
  confidentialApp,
  interactionIdOf,
  oauthErrorOf,
  pkce,
  publicApp,
  REDIRECT,
  type RegisteredApp,
  signInAgain,
  startOAuthWorld,
  visit,
} from "./oauth.fixtures.ts";

// Whole seconds plus 500 ms: a sign-in's auth_time (whole seconds) then falls before a request made in the same second.
const clock = manualClock(Math.floor(Date.now() / 1000) * 1000 + 500);
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => ({ app, owner, user, rp } = await startOAuthWorld({ overrides: { clock } })));
afterAll(() => app.stop());

const base = () => ({ client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "openid", state: "st-1" });

/** The error a redirect to the client carries, with its state and iss. */
function redirectedError(res: { status: number; location: string | null }) {
  expect(res.status).toBe(302);
  expect(res.location).toStartWith(`${REDIRECT}?`);
  const params = callbackParams(res.location);
  return { error: params.get("error"), state: params.get("state"), iss: params.get("iss"), code: params.get("code") };
}

function expectErrorPage(res: { status: number; location: string | null; headers: Headers; body: string }, error: string) {
  expect(res.status).toBe(400);
  expect(res.location).toBeNull();
  expect(res.headers.get("content-type")).toStartWith("text/html");
  expect(res.body).toContain(error);
  expect(res.body).not.toContain(REDIRECT);
}

describe("RFC 6749 section 4.1.2.1: errors before the client and redirect URI are known good stay on our page", () => {
  it("an unknown client_id is an HTML 400 page, never a redirect", async () => {
    expectErrorPage(await visit(user, authorizePath({ ...base(), client_id: "no-such-client" })), "invalid_client");
  });

  it("a missing client_id is an HTML 400 page", async () => {
    const { client_id: _, ...rest } = base();
    expectErrorPage(await visit(user, authorizePath(rest)), "invalid_request");
  });

  it("an unregistered or missing redirect_uri is an HTML 400 page, even when other parameters are bad too", async () => {
    expectErrorPage(await visit(user, authorizePath({ ...base(), redirect_uri: "https://evil.example/callback" })), "invalid_request");
    expectErrorPage(await visit(user, authorizePath({ ...base(), redirect_uri: "https://evil.example/callback", response_type: "token" })), "invalid_request");
    const { redirect_uri: _, ...rest } = base();
    expectErrorPage(await visit(user, authorizePath(rest)), "invalid_request");
  });

  it("a repeated client_id or redirect_uri is an HTML 400 page (which one would we trust?)", async () => {
    expectErrorPage(await visit(user, authorizePath([...Object.entries(base()), ["client_id", rp.client_id]])), "invalid_request");
    expectErrorPage(await visit(user, authorizePath([...Object.entries(base()), ["redirect_uri", "https://evil.example/cb"]])), "invalid_request");
  });

  it("escapes what it shows", async () => {
    const res = await visit(user, authorizePath({ ...base(), client_id: "<script>alert(1)</script>" }));
    expect(res.status).toBe(400);
    expect(res.body).not.toContain("<script>alert(1)</script>");
  });
});

describe("RFC 6749 section 4.1.2.1: after the redirect URI is verified, errors go to the client with state and iss (RFC 9207)", () => {
  const cases: [string, () => Record<string, string> | [string, string][], string][] = [
    ["response_type=token is unsupported_response_type", () => ({ ...base(), response_type: "token" }), "unsupported_response_type"],
    [
      "an unsupported response_type is unsupported_response_type even when response_mode is unsupported too",
      () => ({ ...base(), response_type: "id_token token", response_mode: "form_post" }),
      "unsupported_response_type",
    ],
    [
      "an unsupported response_type is unsupported_response_type even with a request object",
      () => ({ ...base(), response_type: "token", request: "eyJ.x.y" }),
      "unsupported_response_type",
    ],
    [
      "a missing response_type is invalid_request",
      () => {
        const { response_type: _, ...rest } = base();
        return rest;
      },
      "invalid_request",
    ],
    ["a scope the client may not request is invalid_scope", () => ({ ...base(), scope: "admin:users:read" }), "invalid_scope"],
    ["a malformed scope token is invalid_scope", () => ({ ...base(), scope: 'openid pro"file' }), "invalid_scope"],
    [
      "code_challenge_method=plain is invalid_request",
      () => ({ ...base(), code_challenge: "a".repeat(43), code_challenge_method: "plain" }),
      "invalid_request",
    ],
    ["a code_challenge without a method (plain by default) is invalid_request", () => ({ ...base(), code_challenge: "a".repeat(43) }), "invalid_request"],
    ["a method without a code_challenge is invalid_request", () => ({ ...base(), code_challenge_method: "S256" }), "invalid_request"],
    [
      "a code_challenge that is not a base64url SHA-256 is invalid_request",
      () => ({ ...base(), code_challenge: "too-short", code_challenge_method: "S256" }),
      "invalid_request",
    ],
    ["an unknown prompt value is invalid_request", () => ({ ...base(), prompt: "select_account_please" }), "invalid_request"],
    ["prompt=none together with another value is invalid_request", () => ({ ...base(), prompt: "none login" }), "invalid_request"],
    ["a max_age that is not a whole number is invalid_request", () => ({ ...base(), max_age: "soon" }), "invalid_request"],
    ["a negative max_age is invalid_request", () => ({ ...base(), max_age: "-5" }), "invalid_request"],
    ["a repeated parameter (scope) is invalid_request", () => [...Object.entries(base()), ["scope", "profile"]], "invalid_request"],
    ["a repeated parameter (response_type) is invalid_request", () => [...Object.entries(base()), ["response_type", "code"]], "invalid_request"],
  ];
  for (const [title, params, error] of cases) {
    it(title, async () => {
      const got = redirectedError(await visit(user, authorizePath(params())));
      expect(got).toEqual({ error, state: "st-1", iss: app.url, code: null });
    });
  }

  it("a public client without PKCE is invalid_request", async () => {
    const pub = await publicApp(app, owner);
    const got = redirectedError(await visit(user, authorizePath({ ...base(), client_id: pub.client_id })));
    expect(got).toEqual({ error: "invalid_request", state: "st-1", iss: app.url, code: null });
  });

  it("a client not allowed the authorization code grant is unauthorized_client", async () => {
    const refreshOnly = await confidentialApp(app, owner, { grant_types: ["refresh_token"] });
    const got = redirectedError(await visit(user, authorizePath({ ...base(), client_id: refreshOnly.client_id })));
    expect(got).toEqual({ error: "unauthorized_client", state: "st-1", iss: app.url, code: null });
  });

  it("leaves state out when the request had none", async () => {
    const { state: _, ...rest } = base();
    const params = callbackParams((await visit(user, authorizePath({ ...rest, response_type: "token" }))).location);
    expect(params.has("state")).toBe(false);
    expect(params.get("iss")).toBe(app.url);
  });

  it("a denied consent is access_denied with state and iss, and openid-client checks the iss", async () => {
    const other = await confidentialApp(app, owner);
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(other.config, { redirect_uri: REDIRECT, scope: "openid profile", state });
    const callback = await authorizeInBrowser(user, url, "deny");
    expect(callback.searchParams.get("iss")).toBe(app.url);
    expect(callback.searchParams.get("state")).toBe(state);
    expect(await oauthErrorOf(client.authorizationCodeGrant(other.config, callback, { expectedState: state }))).toMatchObject({ error: "access_denied" });
  });

  it("a successful response carries iss too", async () => {
    const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: REDIRECT, scope: "openid", state: "ok" });
    const callback = await authorizeInBrowser(user, url);
    expect(callback.searchParams.get("iss")).toBe(app.url);
    expect(callback.searchParams.get("state")).toBe("ok");
    expect(callback.searchParams.get("code")).toBeString();
  });
});

describe("OIDC Core section 3.1.2.1: the authorization endpoint takes POST too", () => {
  it("a form POST is handled like a GET, errors included", async () => {
    const post = (params: Record<string, string>) =>
      user.browser.fetch("/api/oauth/authorize", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(params).toString(),
      });
    const ok = await post({ ...base(), scope: "openid profile" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toStartWith("/consent?interaction=");
    const bad = await post({ ...base(), response_type: "token" });
    expect(callbackParams(bad.headers.get("location")).get("error")).toBe("unsupported_response_type");
    const unknown = await post({ ...base(), client_id: "nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("location")).toBeNull();
  });
});

describe("OIDC Core section 3.1.2.1: prompt=none (spec 1 section 7)", () => {
  it("answers login_required to the client when nobody is signed in", async () => {
    const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: REDIRECT, scope: "openid", prompt: "none", state: "pn" });
    const res = await visit(app.client(), url.pathname + url.search);
    const callback = new URL(res.location as string);
    expect(await oauthErrorOf(client.authorizationCodeGrant(rp.config, callback, { expectedState: "pn" }))).toMatchObject({ error: "login_required" });
  });

  it("answers login_required when the sign-in is older than max_age", async () => {
    clock.advance(120_000);
    const res = await visit(user, authorizePath({ ...base(), prompt: "none", max_age: "60" }));
    expect(redirectedError(res)).toEqual({ error: "login_required", state: "st-1", iss: app.url, code: null });
  });

  it("answers consent_required when the user has not consented", async () => {
    const fresh = await confidentialApp(app, owner);
    const url = client.buildAuthorizationUrl(fresh.config, { redirect_uri: REDIRECT, scope: "openid profile", prompt: "none", state: "pc" });
    const res = await visit(user, url.pathname + url.search);
    expect(await oauthErrorOf(client.authorizationCodeGrant(fresh.config, new URL(res.location as string), { expectedState: "pc" }))).toMatchObject({
      error: "consent_required",
    });
  });

  it("answers a code without any page when the user is signed in and consented", async () => {
    const fresh = await confidentialApp(app, owner);
    await authorizeInBrowser(user, client.buildAuthorizationUrl(fresh.config, { redirect_uri: REDIRECT, scope: "openid profile" }));
    const res = await visit(user, authorizePath({ ...base(), client_id: fresh.client_id, scope: "openid profile", prompt: "none" }));
    expect(redirectedError(res)).toMatchObject({ error: null, state: "st-1", iss: app.url });
    expect(callbackParams(res.location).get("code")).toBeString();
  });
});

/** Starts an authorization that must sign in again; answers the login redirect and the interaction's resume path. */
async function mustSignInAgain(who: SignedUp, params: Record<string, string>) {
  const res = await visit(who, authorizePath(params));
  expect(res.status).toBe(302);
  expect(res.location).toStartWith("/login?return_to=");
  const id = interactionIdOf(res.location as string);
  expect(new URL(res.location as string, app.url).searchParams.get("return_to")).toBe(`/api/oauth/interaction/${id}/resume`);
  return { location: res.location as string, resume: `/api/oauth/interaction/${id}/resume` };
}

/** Follows a resume path to the client (approving consent when asked). */
async function resumeToClient(who: SignedUp, resume: string): Promise<URL> {
  return authorizeInBrowser(who, new URL(resume, app.url));
}

describe("OIDC Core section 3.1.2.1: prompt=login and max_age force a new sign-in", () => {
  it("prompt=login sends a signed-in user to /login, and the resume keeps asking until they sign in again", async () => {
    const fresh = await confidentialApp(app, owner);
    const { verifier, challenge } = await pkce();
    const params = { ...base(), client_id: fresh.client_id, prompt: "login", nonce: "n-1", code_challenge: challenge, code_challenge_method: "S256" };
    const { location, resume } = await mustSignInAgain(user, params);
    // The sign-in page is told to ask again although a session exists (it would go on at once otherwise).
    expect(new URL(location, app.url).searchParams.get("prompt")).toBe("login");
    // Following the resume URL without signing in again does not skip the sign-in.
    const again = await visit(user, resume);
    expect(again.location).toStartWith("/login?return_to=");
    expect(new URL(again.location as string, app.url).searchParams.get("prompt")).toBe("login");
    // Same second as the request (the clock is at .500): the new sign-in still counts as fresh.
    const signedIn = await signInAgain(user);
    const session = await user.browser.json("GET", "/api/auth/session");
    const callback = await resumeToClient(user, resume);
    const tokens = await client.authorizationCodeGrant(fresh.config, callback, { pkceCodeVerifier: verifier, expectedState: "st-1", expectedNonce: "n-1" });
    expect(tokens.claims()?.auth_time).toBe(session.data.session.auth_time);
    expect(tokens.claims()?.sid).toBe(session.data.session.sid);
    expect(signedIn.status).toBe(200);
  });

  it("max_age older than the sign-in sends the user to /login; after signing in again, openid-client's max_age check passes", async () => {
    const fresh = await confidentialApp(app, owner);
    await authorizeInBrowser(user, client.buildAuthorizationUrl(fresh.config, { redirect_uri: REDIRECT, scope: "openid" })); // consent given
    clock.advance(300_000);
    const { verifier, challenge } = await pkce();
    const { resume } = await mustSignInAgain(user, {
      ...base(),
      client_id: fresh.client_id,
      max_age: "60",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    await signInAgain(user);
    const callback = await resumeToClient(user, resume);
    const tokens = await client.authorizationCodeGrant(fresh.config, callback, { pkceCodeVerifier: verifier, expectedState: "st-1", maxAge: 60 });
    expect(Math.floor(clock.now() / 1000) - (tokens.claims()?.auth_time as number)).toBeLessThanOrEqual(60);
  });

  it("max_age=0 asks for a sign-in every time, and one made for this request is enough", async () => {
    const fresh = await confidentialApp(app, owner);
    await authorizeInBrowser(user, client.buildAuthorizationUrl(fresh.config, { redirect_uri: REDIRECT, scope: "openid" }));
    clock.advance(5_000);
    const { resume } = await mustSignInAgain(user, { ...base(), client_id: fresh.client_id, max_age: "0" });
    await signInAgain(user);
    clock.advance(1_500); // the user took a moment; auth_time is now in the past
    const callback = await resumeToClient(user, resume);
    expect(callback.searchParams.get("code")).toBeString();
    expect(callback.searchParams.get("error")).toBeNull();
  });

  it("a sign-in made for a request counts for that request only: its resume URL gives one code", async () => {
    const fresh = await confidentialApp(app, owner);
    await authorizeInBrowser(user, client.buildAuthorizationUrl(fresh.config, { redirect_uri: REDIRECT, scope: "openid" }));
    const { resume } = await mustSignInAgain(user, { ...base(), client_id: fresh.client_id, prompt: "login" });
    await signInAgain(user);
    const first = await visit(user, resume);
    expect(callbackParams(first.location).get("code")).toBeString();
    // Used up: no second code from the same sign-in.
    expectErrorPage(await visit(user, resume), "invalid_request");
  });

  it("an unknown or expired interaction is an HTML 400 page", async () => {
    expectErrorPage(await visit(user, "/api/oauth/interaction/nope/resume"), "invalid_request");
  });
});

describe("OIDC Core section 3.1.2.1: acr_values=mfa (spec 1 section 4.2)", () => {
  const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.now() / 1000) });

  it("a session without a second factor is sent to sign in with one; a user without any gets access_denied", async () => {
    const bob = await signUp(app, "bob");
    const { location, resume } = await mustSignInAgain(bob, { ...base(), acr_values: "mfa" });
    expect(new URL(location, app.url).searchParams.get("mfa")).toBe("required");
    await signInAgain(bob); // password only: bob has no second factor
    const res = await visit(bob, resume);
    expect(redirectedError(res)).toEqual({ error: "access_denied", state: "st-1", iss: app.url, code: null });
  });

  it("a user who signs in again with TOTP gets a code whose ID token says acr mfa", async () => {
    const carol = await signUp(app, "carol");
    const started = await carol.browser.json("POST", "/api/oauth/me/totp");
    await carol.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await codeAt(started.data.secret) });
    const fresh = await confidentialApp(app, owner);
    const { verifier, challenge } = await pkce();
    const { resume } = await mustSignInAgain(carol, {
      ...base(),
      client_id: fresh.client_id,
      acr_values: "mfa",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const first = await carol.browser.json("POST", "/api/auth/login", { login: "carol", password: PASSWORD });
    clock.advance(30_000); // a new TOTP step: the enrolment code may not be replayed
    const second = await carol.browser.json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await codeAt(started.data.secret) });
    expect(second.status).toBe(200);
    const callback = await resumeToClient(carol, resume);
    const tokens = await client.authorizationCodeGrant(fresh.config, callback, { pkceCodeVerifier: verifier, expectedState: "st-1" });
    expect(tokens.claims()).toMatchObject({ acr: "mfa" });
    expect(tokens.claims()?.amr).toContain("otp");
  });

  it("with prompt=none it is login_required", async () => {
    const res = await visit(user, authorizePath({ ...base(), acr_values: "mfa", prompt: "none" }));
    expect(redirectedError(res)).toEqual({ error: "login_required", state: "st-1", iss: app.url, code: null });
  });
});
