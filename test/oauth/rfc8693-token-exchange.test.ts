import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { confidentialApp, oauthErrorOf, obtainTokens, pkce, postForm, publicApp, REDIRECT, type RegisteredApp, TOKEN, withToken } from "./oauth.fixtures.ts";

const EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
const WITH_EXCHANGE = ["authorization_code", "refresh_token", EXCHANGE];

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
/** The API behind the front end: it trades the front end's tokens for its own. */
let api: RegisteredApp;
/** The front end the user signs in to, allowed to hand its access on to `api`. */
let front: RegisteredApp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
  api = await confidentialApp(app, owner, { name: "Photo API", grant_types: WITH_EXCHANGE });
  front = await confidentialApp(app, owner, {
    name: "Photo site",
    grant_types: WITH_EXCHANGE,
    scopes: ["openid", "profile", "email", "offline_access", `app:${api.client_id}:*`],
  });
});
afterAll(() => app.stop());

const exchange = (caller: RegisteredApp, form: Record<string, string> | [string, string][]) =>
  postForm(app, TOKEN, Array.isArray(form) ? [["grant_type", EXCHANGE], ...form] : { grant_type: EXCHANGE, ...form }, {
    basic: [caller.client_id, caller.client_secret],
  });
const introspect = (caller: RegisteredApp, token: string) =>
  postForm(app, "/api/oauth/introspect", { token }, { basic: [caller.client_id, caller.client_secret] });

describe("RFC 8693 per spec 1 section 4.3", () => {
  let subject: string;
  beforeAll(async () => {
    subject = (await obtainTokens(user, front, `openid profile offline_access app:${api.client_id}:*`)).access_token;
  });

  it("shows the cross-app scope on the consent page by the other app's name", async () => {
    // prompt=consent asks again although the user consented: the interaction names the other app.
    const url = client.buildAuthorizationUrl(front.config, {
      redirect_uri: "https://rp.example.com/callback",
      scope: `openid email app:${api.client_id}:*`,
      prompt: "consent",
    });
    const res = await user.browser.fetch(url.pathname + url.search);
    const id = new URL(res.headers.get("location") as string, app.url).searchParams.get("interaction") as string;
    const shown = await user.browser.json("GET", `/api/oauth/interaction/${id}`);
    expect(shown.data.scopes).toContain(`app:${api.client_id}:*`);
    expect(shown.data.apps).toEqual({ [api.client_id]: "Photo API" });
  });

  it("lets the named app exchange the token through openid-client: a new token for the same user, not refreshable", async () => {
    const answer = await client.genericGrantRequest(api.config, EXCHANGE, {
      subject_token: subject,
      subject_token_type: ACCESS_TOKEN,
      audience: "photo-store",
    });
    expect(answer).toMatchObject({ token_type: "bearer", issued_token_type: ACCESS_TOKEN, scope: "openid profile" });
    expect(answer.refresh_token).toBeUndefined();
    expect(answer.id_token).toBeUndefined();
    const info = await introspect(api, answer.access_token);
    expect(info.data).toMatchObject({ active: true, sub: user.user.id, client_id: api.client_id, aud: "photo-store", scope: "openid profile" });
  });

  it("narrows the scope on request, never widens it", async () => {
    const narrowed = await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, scope: "openid" });
    expect(narrowed.data.scope).toBe("openid");
    for (const scope of ["openid email", `app:${api.client_id}:*`, "offline_access"]) {
      const wider = await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, scope });
      expect(wider.status).toBe(400);
      expect(wider.data.error).toBe("invalid_scope");
    }
  });

  it("takes the audience from repeated resource and audience parameters", async () => {
    const res = await exchange(api, [
      ["subject_token", subject],
      ["subject_token_type", ACCESS_TOKEN],
      ["resource", "https://photos.example/api"],
      ["audience", "thumbnailer"],
    ]);
    expect((await introspect(api, res.data.access_token)).data.aud).toEqual(["https://photos.example/api", "thumbnailer"]);
    const bad = await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, resource: "relative/path" });
    expect(bad.data.error).toBe("invalid_target");
  });

  it("lets the app the token was issued to exchange it, and no other", async () => {
    expect((await exchange(front, { subject_token: subject, subject_token_type: ACCESS_TOKEN })).status).toBe(200);
    const stranger = await confidentialApp(app, owner, { grant_types: WITH_EXCHANGE });
    const refused = await exchange(stranger, { subject_token: subject, subject_token_type: ACCESS_TOKEN });
    expect(refused.status).toBe(400);
    expect(refused.data.error).toBe("invalid_grant");
  });

  it("refuses other token types, unknown tokens, public clients and clients without the grant type", async () => {
    expect((await exchange(api, { subject_token: subject, subject_token_type: "urn:ietf:params:oauth:token-type:id_token" })).data.error).toBe(
      "invalid_request",
    );
    expect((await exchange(api, { subject_token: "x".repeat(43), subject_token_type: ACCESS_TOKEN })).data.error).toBe("invalid_grant");
    expect((await exchange(api, { subject_token_type: ACCESS_TOKEN })).data.error).toBe("invalid_request");
    const spa = await publicApp(app, owner, { grant_types: WITH_EXCHANGE });
    const fromSpa = await postForm(app, TOKEN, { grant_type: EXCHANGE, client_id: spa.client_id, subject_token: subject, subject_token_type: ACCESS_TOKEN });
    expect(fromSpa.data.error).toBe("unauthorized_client");
    const plain = await confidentialApp(app, owner);
    expect((await exchange(plain, { subject_token: subject, subject_token_type: ACCESS_TOKEN })).data.error).toBe("unauthorized_client");
  });

  it("answers 50 identical exchanges at once with 50 distinct working tokens", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const tokens = new Set(answers.map((a) => a.data.access_token as string));
    expect(tokens.size).toBe(50);
    const sample = [...tokens][49] as string;
    expect((await introspect(api, sample)).data.active).toBe(true);
  });

  it("is advertised in discovery", async () => {
    const meta = (await app.json("GET", "/.well-known/openid-configuration")).data;
    expect(meta.grant_types_supported).toContain(EXCHANGE);
  });
});

/** Whether a refusal with this private detail was logged (the answer carries only the code's fixed text). */
const logged = (detail: string) => app.logs.some((l) => l.detail === detail);

/** The exchange through openid-client, as `caller`: its token response. */
const exchangeAs = (caller: RegisteredApp, subject: string, extra: Record<string, string> = {}) =>
  client.genericGrantRequest(caller.config, EXCHANGE, { subject_token: subject, subject_token_type: ACCESS_TOKEN, ...extra });

describe("RFC 8693 section 2.1: the subject token's audience bounds the new token's", () => {
  const A = "https://api-a.example/";
  let bound: string;
  beforeAll(async () => {
    bound = (await obtainTokens(user, front, `openid profile app:${api.client_id}:*`, { resource: A })).access_token;
    expect((await introspect(front, bound)).data.aud).toBe(A);
  });

  it("refuses another resource, another audience, or a free-text audience with invalid_target", async () => {
    const targets: Record<string, string>[] = [{ audience: "https://api-b.example/" }, { resource: "https://api-b.example/" }, { audience: "photo-store" }];
    for (const target of targets) {
      const refused = await oauthErrorOf(exchangeAs(api, bound, target));
      expect(refused).toMatchObject({ error: "invalid_target", status: 400 });
      expect(refused.description).toContain("outside the subject token's audience");
    }
    const mixed = await exchange(api, [
      ["subject_token", bound],
      ["subject_token_type", ACCESS_TOKEN],
      ["resource", A],
      ["audience", "https://api-b.example/"],
    ]);
    expect(mixed.data.error).toBe("invalid_target");
  });

  it("keeps the subject's restriction when none is asked, and grants it when asked by resource or audience", async () => {
    const kept = await exchangeAs(api, bound);
    expect((await introspect(api, kept.access_token)).data.aud).toBe(A);
    const targets: Record<string, string>[] = [{ resource: A }, { audience: A }];
    for (const target of targets) {
      const same = await exchangeAs(api, bound, target);
      expect((await introspect(api, same.access_token)).data.aud).toBe(A);
    }
  });

  it("lets a token with several audiences be exchanged for one of them", async () => {
    const two = await obtainTokensRawWithResources(["https://api-a.example/", "https://api-c.example/"]);
    expect((await introspect(front, two)).data.aud).toEqual(["https://api-a.example/", "https://api-c.example/"]);
    const one = await exchangeAs(api, two, { resource: "https://api-c.example/" });
    expect((await introspect(api, one.access_token)).data.aud).toBe("https://api-c.example/");
  });
});

/** A token of `front` for `user` bound to several resources (`resource` repeated at authorization). */
async function obtainTokensRawWithResources(resources: string[]) {
  const { verifier, challenge } = await pkce();
  const url = client.buildAuthorizationUrl(front.config, {
    redirect_uri: REDIRECT,
    scope: `openid app:${api.client_id}:*`,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  for (const r of resources) url.searchParams.append("resource", r);
  const callback = await authorizeInBrowser(user, url);
  return (await client.authorizationCodeGrant(front.config, callback, { pkceCodeVerifier: verifier })).access_token;
}

describe("RFC 8693 section 2.1 and RFC 6749 section 3.3: the calling client's allowed scopes bound the new token's", () => {
  let narrow: RegisteredApp;
  let lister: RegisteredApp;
  let subject: string;
  beforeAll(async () => {
    // X may only ever hold openid; Y, whose token names X, may read the user's apps.
    narrow = await confidentialApp(app, owner, { name: "Narrow app", grant_types: WITH_EXCHANGE, scopes: ["openid"] });
    lister = await confidentialApp(app, owner, { name: "App lister", scopes: ["openid", "apps:read", `app:${narrow.client_id}:*`] });
    subject = (await obtainTokens(user, lister, `openid apps:read app:${narrow.client_id}:*`)).access_token;
    expect((await withToken(app, subject)("GET", "/api/oauth/me/clients")).status).toBe(200);
  });

  it("issues only the scopes both the subject token and the calling client have", async () => {
    const answer = await exchangeAs(narrow, subject);
    expect(answer.scope).toBe("openid");
    expect((await introspect(narrow, answer.access_token)).data.scope).toBe("openid");
    const apps = await withToken(app, answer.access_token)("GET", "/api/oauth/me/clients");
    expect(apps.status).toBe(403);
    expect(apps.data.error).toBe("insufficient_scope");
  });

  it("refuses a scope the subject token has but the calling client may not hold", async () => {
    const refused = await oauthErrorOf(exchangeAs(narrow, subject, { scope: "openid apps:read" }));
    expect(refused).toMatchObject({ error: "invalid_scope", status: 400 });
    expect(logged("scope apps:read is not allowed for this client")).toBe(true);
  });

  it("refuses with invalid_scope when nothing of the subject token's scope is allowed for the client", async () => {
    const profileOnly = await confidentialApp(app, owner, { grant_types: WITH_EXCHANGE, scopes: ["profile"] });
    const y = await confidentialApp(app, owner, { scopes: ["openid", "apps:read", `app:${profileOnly.client_id}:*`] });
    const token = (await obtainTokens(user, y, `openid apps:read app:${profileOnly.client_id}:*`)).access_token;
    expect(await oauthErrorOf(exchangeAs(profileOnly, token))).toMatchObject({ error: "invalid_scope", status: 400 });
  });

  it("keeps a team-bound scope whose unbound form the client is allowed, and drops one it is not", async () => {
    const teamId: string = (await user.browser.json("POST", "/api/oauth/me/teams", { name: "Alice's team" })).data.team.id;
    const teamTool = await confidentialApp(app, owner, { grant_types: WITH_EXCHANGE, scopes: ["openid", "team:read"] });
    const teamSite = await confidentialApp(app, owner, { scopes: ["openid", "team:read", "team:member:read", `app:${teamTool.client_id}:*`] });
    const url = client.buildAuthorizationUrl(teamSite.config, {
      redirect_uri: REDIRECT,
      scope: `openid team:read team:member:read app:${teamTool.client_id}:*`,
      state: "s",
    });
    const callback = await authorizeInBrowser(user, url, "approve", { team_id: teamId });
    const subject = (await client.authorizationCodeGrant(teamSite.config, callback, { expectedState: "s" })).access_token;
    const answer = await exchangeAs(teamTool, subject);
    expect(answer.scope).toBe(`openid team:${teamId}:read`);
    const call = withToken(app, answer.access_token);
    expect((await call("GET", `/api/oauth/me/team/${teamId}`)).data.team.name).toBe("Alice's team");
    expect((await call("GET", `/api/oauth/me/team/${teamId}/members`)).status).toBe(403);
  });

  it("drops admin-only scopes for a user who is no longer an admin, as authorization does", async () => {
    const bob = await signUp(app, "bob");
    expect((await owner.browser.json("PATCH", `/api/oauth/admin/users/${bob.user.id}`, { role: "admin" })).status).toBe(200);
    const adminTool = await confidentialApp(app, owner, { grant_types: WITH_EXCHANGE, scopes: ["openid", "admin:users:read"] });
    const console_ = await confidentialApp(app, owner, { scopes: ["openid", "admin:users:read", `app:${adminTool.client_id}:*`] });
    const token = (await obtainTokens(bob, console_, `openid admin:users:read app:${adminTool.client_id}:*`)).access_token;
    expect((await exchangeAs(adminTool, token)).scope).toBe("openid admin:users:read");
    expect((await owner.browser.json("PATCH", `/api/oauth/admin/users/${bob.user.id}`, { role: "user" })).status).toBe(200);
    expect((await exchangeAs(adminTool, token)).scope).toBe("openid");
    expect(await oauthErrorOf(exchangeAs(adminTool, token, { scope: "admin:users:read" }))).toMatchObject({ error: "invalid_scope", status: 400 });
    expect(logged("scope admin:users:read is for administrators only")).toBe(true);
  });
});

describe("RFC 8693 with RFC 7009 and spec 3.2: an exchanged token ends with the subject's grant", () => {
  /** A fresh user's refreshable token at `front`, and a token `api` obtained for it by exchange. */
  async function lineage(name: string) {
    const person = await signUp(app, name);
    const tokens = await obtainTokens(person, front, `openid profile offline_access app:${api.client_id}:*`);
    const exchanged = (await exchangeAs(api, tokens.access_token)).access_token;
    expect((await introspect(api, exchanged)).data.active).toBe(true);
    return { person, tokens, exchanged };
  }
  const dead = async (token: string) => {
    expect((await introspect(api, token)).data).toEqual({ active: false });
    expect((await withToken(app, token)("GET", "/api/oauth/userinfo")).status).toBe(401);
  };

  it("when a rotated refresh token of the subject's grant is presented again (reuse detection)", async () => {
    const { tokens, exchanged } = await lineage("rita");
    const old = tokens.refresh_token as string;
    await client.refreshTokenGrant(front.config, old);
    expect((await introspect(api, exchanged)).data.active).toBe(true);
    expect(await oauthErrorOf(client.refreshTokenGrant(front.config, old))).toMatchObject({ error: "invalid_grant" });
    await dead(exchanged);
  });

  it("when the subject's refresh token is revoked (RFC 7009)", async () => {
    const { tokens, exchanged } = await lineage("ravi");
    await client.tokenRevocation(front.config, tokens.refresh_token as string, { token_type_hint: "refresh_token" });
    await dead(exchanged);
  });

  it("when the user withdraws the subject app's consent", async () => {
    const { person, exchanged } = await lineage("cora");
    expect((await person.browser.json("DELETE", `/api/oauth/me/consents/${front.client_id}`)).status).toBe(200);
    await dead(exchanged);
  });

  it("also through a token exchanged again from an exchanged one", async () => {
    const { tokens, exchanged } = await lineage("ezra");
    const again = (await exchangeAs(api, exchanged, { scope: "openid" })).access_token;
    expect((await introspect(api, again)).data.active).toBe(true);
    await client.tokenRevocation(front.config, tokens.refresh_token as string);
    await dead(again);
  });

  it("goes at most four exchanges deep from the grant the user made", async () => {
    const { tokens, exchanged } = await lineage("dina");
    let token = exchanged;
    for (let depth = 2; depth <= 4; depth++) token = (await exchangeAs(api, token)).access_token;
    expect(await oauthErrorOf(exchangeAs(api, token))).toMatchObject({ error: "invalid_grant", status: 400 });
    await client.tokenRevocation(front.config, tokens.refresh_token as string);
    await dead(token);
  });

  it("while the subject's grant lives, revoking the subject access token alone leaves the exchanged one", async () => {
    const { tokens, exchanged } = await lineage("lena");
    await client.tokenRevocation(front.config, tokens.access_token);
    expect((await introspect(api, exchanged)).data.active).toBe(true);
  });
});

describe("RFC 8693 section 2.1: actor_token", () => {
  it("is refused as unsupported (no delegation), not ignored", async () => {
    const subject = (await obtainTokens(user, front, `openid app:${api.client_id}:*`)).access_token;
    const actor = (await obtainTokens(user, api, "openid")).access_token;
    const refused = await oauthErrorOf(exchangeAs(api, subject, { actor_token: actor, actor_token_type: ACCESS_TOKEN }));
    expect(refused).toMatchObject({ error: "invalid_request", status: 400 });
    expect(refused.description).toContain("actor_token is not supported");
    expect((await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, actor_token_type: ACCESS_TOKEN })).data.error).toBe(
      "invalid_request",
    );
  });
});
