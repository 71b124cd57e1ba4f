import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { generate } from "otplib";
import * as client from "openid-client";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { makeTeam } from "../identity/teams.fixtures.ts";
import {
  authorizePath,
  confidentialApp,
  interactionIdOf,
  obtainTokens,
  obtainTokensRaw,
  postForm,
  oauthErrorOf,
  pkce,
  REDIRECT,
  type RegisteredApp,
  visit,
  withToken,
} from "./oauth.fixtures.ts";

const clock = manualClock();
let app: TestApp;
let admin: SignedUp;
let alice: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
  alice = await signUp(app, "alice", { name: "Alice Liddell" });
  rp = await confidentialApp(app, admin, { scopes: ["openid", "profile", "profile:write", "email", "teams:read", "admin:users:read", "apps:read"] });
});
afterAll(() => app.stop());

/** The resource request through openid-client: status, body and challenge. */
async function resource(accessToken: string, path: string, method = "GET", body?: unknown) {
  const headers = new Headers(body === undefined ? {} : { "content-type": "application/json" });
  try {
    const res = await client.fetchProtectedResource(
      rp.config,
      accessToken,
      new URL(path, app.url),
      method,
      body === undefined ? undefined : JSON.stringify(body),
      headers,
    );
    return { status: res.status, data: await res.json(), challenge: res.headers.get("www-authenticate") };
  } catch (e) {
    if (!(e instanceof client.WWWAuthenticateChallengeError)) throw e;
    const res = e.response as Response;
    return { status: res.status, data: await res.json(), challenge: res.headers.get("www-authenticate") };
  }
}

describe("UserInfo (OIDC Core section 5.3, spec 1 section 2.4)", () => {
  it("answers claims filtered by the granted scope, by GET and POST, with no-store", async () => {
    const bare = await obtainTokens(alice, rp, "openid");
    expect(await client.fetchUserInfo(rp.config, bare.access_token, alice.user.id)).toEqual({ sub: alice.user.id });
    const full = await obtainTokens(alice, rp, "openid profile email");
    const info = await client.fetchUserInfo(rp.config, full.access_token, alice.user.id);
    expect(info).toMatchObject({ sub: alice.user.id, name: "Alice Liddell", preferred_username: "alice", email: "alice@example.com", email_verified: false });
    const byPost = await withToken(app, full.access_token)("POST", "/api/oauth/userinfo");
    expect(byPost.status).toBe(200);
    expect(byPost.data.sub).toBe(alice.user.id);
    expect(byPost.headers.get("cache-control")).toBe("no-store");
  });

  it("spec 1 section 7: a token without openid gets 403 insufficient_scope with a Bearer challenge", async () => {
    const tokens = await obtainTokens(alice, rp, "profile");
    const res = await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo");
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toStartWith("Bearer ");
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="openid"');
    expect(await oauthErrorOf(client.fetchUserInfo(rp.config, tokens.access_token, alice.user.id))).toMatchObject({ error: "insufficient_scope", status: 403 });
  });

  it("RFC 6750 section 3: no token, a bad token, a session or personal token: 401 with a Bearer challenge", async () => {
    const none = await fetch(`${app.url}/api/oauth/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toStartWith("Bearer ");
    for (const credential of ["not-a-token", alice.token]) {
      const res = await withToken(app, credential)("GET", "/api/oauth/userinfo");
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
  });
});

describe("the self-service API with an access token (ARCHITECTURE section 4)", () => {
  it("profile reads GET /api/oauth/me", async () => {
    const tokens = await obtainTokens(alice, rp, "openid profile");
    const res = await resource(tokens.access_token, "/api/oauth/me");
    expect(res.status).toBe(200);
    expect(res.data.user).toMatchObject({ id: alice.user.id, username: "alice", name: "Alice Liddell" });
  });

  it("without profile:write, PATCH /api/oauth/me is 403 insufficient_scope and changes nothing", async () => {
    const tokens = await obtainTokens(alice, rp, "openid profile");
    const res = await resource(tokens.access_token, "/api/oauth/me", "PATCH", { name: "Mallory" });
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
    expect(res.challenge).toContain('scope="profile:write"');
    expect((await resource(tokens.access_token, "/api/oauth/me")).data.user.name).toBe("Alice Liddell");
  });

  it("with profile:write, PATCH /api/oauth/me updates the name", async () => {
    const tokens = await obtainTokens(alice, rp, "openid profile profile:write");
    const res = await resource(tokens.access_token, "/api/oauth/me", "PATCH", { name: "Alice L." });
    expect(res.status).toBe(200);
    expect(res.data.user.name).toBe("Alice L.");
    await resource(tokens.access_token, "/api/oauth/me", "PATCH", { name: "Alice Liddell" });
  });

  it("a token without profile cannot read /api/oauth/me", async () => {
    const tokens = await obtainTokens(alice, rp, "openid email");
    expect((await resource(tokens.access_token, "/api/oauth/me")).status).toBe(403);
  });

  it("teams:read lists the user's teams, and nothing more", async () => {
    const teamId = await makeTeam(alice, "Readers");
    const tokens = await obtainTokens(alice, rp, "openid teams:read");
    const res = await resource(tokens.access_token, "/api/oauth/me/teams");
    expect(res.status).toBe(200);
    expect(res.data.teams).toContainEqual(expect.objectContaining({ id: teamId, name: "Readers", role: "owner" }));
    const create = await resource(tokens.access_token, "/api/oauth/me/teams", "POST", { name: "Not allowed" });
    expect({ status: create.status, error: create.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
    const withoutScope = await obtainTokens(alice, rp, "openid profile");
    expect((await resource(withoutScope.access_token, "/api/oauth/me/teams")).status).toBe(403);
  });

  it("session-only endpoints refuse an access token whatever its scopes", async () => {
    const tokens = await obtainTokens(alice, rp, "openid profile profile:write");
    for (const path of ["/api/oauth/me/sessions", "/api/oauth/me/tokens", "/api/oauth/me/consents"])
      expect((await resource(tokens.access_token, path)).status).toBe(403);
  });
});

describe("RFC 9470: admin endpoints want a sign-in with a second factor (site setting admin_requires_mfa)", () => {
  const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.now() / 1000) });

  it('an admin\'s token from a password sign-in gets 401 insufficient_user_authentication with acr_values="mfa"', async () => {
    const tokens = await obtainTokens(admin, rp, "openid admin:users:read");
    expect(tokens.claims()?.acr).toBe("pwd");
    const res = await resource(tokens.access_token, "/api/oauth/admin/users");
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 401, error: "insufficient_user_authentication" });
    expect(res.challenge).toStartWith("Bearer ");
    expect(res.challenge).toContain('error="insufficient_user_authentication"');
    expect(res.challenge).toContain('acr_values="mfa"');
  });

  it("with admin_requires_mfa off, the same token is enough", async () => {
    const tokens = await obtainTokens(admin, rp, "openid admin:users:read");
    await updateSiteConfig(app.ctx, { admin_requires_mfa: false });
    try {
      expect((await resource(tokens.access_token, "/api/oauth/admin/users")).status).toBe(200);
    } finally {
      await updateSiteConfig(app.ctx, { admin_requires_mfa: true });
    }
    expect((await resource(tokens.access_token, "/api/oauth/admin/users")).status).toBe(401);
  });

  it("a user who is not an admin gets 403 even with the scope in hand", async () => {
    const tokens = await obtainTokens(alice, rp, "openid admin:users:read");
    expect(tokens.scope).toBe("openid"); // admin scopes fall out for a user
    expect((await resource(tokens.access_token, "/api/oauth/admin/users")).status).toBe(403);
  });

  it("the client repeats authorization with acr_values=mfa; after a TOTP sign-in the new token is accepted", async () => {
    const started = await admin.browser.json("POST", "/api/oauth/me/totp");
    await admin.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await codeAt(started.data.secret) });
    clock.advance(30_000);
    // The admin's session is still a password one: the authorization sends them to sign in with the second factor.
    const { verifier, challenge } = await pkce();
    const res = await visit(
      admin,
      authorizePath({
        client_id: rp.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "openid admin:users:read",
        acr_values: "mfa",
        state: "up",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    );
    expect(res.location).toStartWith("/login?return_to=");
    expect(res.location).toContain("mfa=required");
    const first = await admin.browser.json("POST", "/api/auth/login", { login: "admin", password: PASSWORD });
    const second = await admin.browser.json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await codeAt(started.data.secret) });
    expect(second.status).toBe(200);
    const callback = await authorizeInBrowser(admin, new URL(`/api/oauth/interaction/${interactionIdOf(res.location as string)}/resume`, app.url));
    const tokens = await client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: "up" });
    expect(tokens.claims()?.acr).toBe("mfa");
    const ok = await resource(tokens.access_token, "/api/oauth/admin/users");
    expect(ok.status).toBe(200);
    // Still scope-checked: this token has no admin:config:read.
    const config = await resource(tokens.access_token, "/api/oauth/admin/config");
    expect({ status: config.status, error: config.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
  });
});

describe("RFC 9470 beyond the admin API: an app deletes a team only after a recent second factor", () => {
  it("refuses a password sign-in's token with acr_values and max_age, takes a fresh second-factor one, and refuses it once old", async () => {
    const deleter = await confidentialApp(app, admin, { scopes: ["openid", "teams:delete"] });
    const aliceTeam = await makeTeam(alice, "Alice's doomed team");
    const weak = await obtainTokensRaw(app, alice, deleter, "openid teams:delete");
    const refused = await resource(weak.access_token, `/api/oauth/me/teams/${aliceTeam}`, "DELETE");
    expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 401, error: "insufficient_user_authentication" });
    expect(refused.challenge).toContain('acr_values="mfa", max_age=900');

    // The admin signed in with TOTP above: a token from that sign-in is strong and, at first, recent enough.
    const first = await makeTeam(admin, "First to go");
    const second = await makeTeam(admin, "Second to go");
    const token = (await obtainTokensRaw(app, admin, deleter, "openid teams:delete")).access_token;
    const introspected = await postForm(app, "/api/oauth/introspect", { token }, { basic: [deleter.client_id, deleter.client_secret] });
    expect(introspected.data.acr).toBe("mfa");
    expect((await resource(token, `/api/oauth/me/teams/${first}`, "DELETE")).status).toBe(200);
    clock.advance(901_000);
    const stale = await resource(token, `/api/oauth/me/teams/${second}`, "DELETE");
    expect(stale.status).toBe(401);
    expect(stale.challenge).toContain("max_age=900");
  });
});
