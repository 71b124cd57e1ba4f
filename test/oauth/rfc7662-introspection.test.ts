import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { confidentialApp, obtainTokensRaw, postForm, type RegisteredApp } from "./oauth.fixtures.ts";

const INTROSPECT = "/api/oauth/introspect";
const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
let other: RegisteredApp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
  rp = await confidentialApp(app, owner);
  other = await confidentialApp(app, owner);
});
afterAll(() => app.stop());

const introspect = (r: RegisteredApp, token: string, hint?: string) =>
  postForm(app, INTROSPECT, hint ? { token, token_type_hint: hint } : { token }, { basic: [r.client_id, r.client_secret] });
const refresh = (r: RegisteredApp, token: string) =>
  postForm(app, "/api/oauth/token", { grant_type: "refresh_token", refresh_token: token }, { basic: [r.client_id, r.client_secret] });

describe("RFC 7662 section 2.2: an active token of the caller", () => {
  it("is described through openid-client with the spec's fields (spec 1 section 2.4)", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid profile");
    const session = await user.browser.json("GET", "/api/auth/session");
    const info = await client.tokenIntrospection(rp.config, tokens.access_token);
    expect(info).toMatchObject({
      active: true,
      sub: user.user.id,
      scope: "openid profile",
      client_id: rp.client_id,
      token_type: "Bearer",
      aud: rp.client_id,
      iss: app.url,
      acr: "pwd",
      amr: ["pwd"],
      auth_time: session.data.session.auth_time,
    });
    expect((info.exp as number) - (info.iat as number)).toBe(3600);
    expect(info.iat).toBe(Math.floor(clock.now() / 1000));
  });

  it("answers with Cache-Control: no-store", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    const res = await introspect(rp, tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("RFC 7662 section 2.2 and spec 1 section 7: anything else is exactly {active:false}", () => {
  it("a token issued to another client", async () => {
    const theirs = await obtainTokensRaw(app, user, other, "openid profile");
    expect((await introspect(rp, theirs.access_token)).data).toEqual({ active: false });
    expect((await client.tokenIntrospection(rp.config, theirs.access_token)).active).toBe(false);
    // ... which its own client still sees as active.
    expect((await introspect(other, theirs.access_token)).data.active).toBe(true);
  });

  it("an unknown token", async () => {
    expect((await introspect(rp, "never-issued")).data).toEqual({ active: false });
  });

  it("a revoked token", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    await client.tokenRevocation(rp.config, tokens.access_token);
    expect((await introspect(rp, tokens.access_token)).data).toEqual({ active: false });
  });

  it("an expired token (after its 3600 seconds)", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    clock.advance(3599_000);
    expect((await introspect(rp, tokens.access_token)).data.active).toBe(true);
    clock.advance(1000);
    expect((await introspect(rp, tokens.access_token)).data).toEqual({ active: false });
  });

  it("a token whose user is disabled", async () => {
    const dora = await signUp(app, "dora");
    const tokens = await obtainTokensRaw(app, dora, rp, "openid");
    const disabled = await owner.bearer("PATCH", `/api/oauth/admin/users/${dora.user.id}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect((await introspect(rp, tokens.access_token)).data).toEqual({ active: false });
  });
});

describe("RFC 7662 section 2.1: the caller must authenticate", () => {
  it("a wrong secret is invalid_client (401) and reveals nothing", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    const res = await postForm(app, INTROSPECT, { token: tokens.access_token }, { basic: [rp.client_id, "wrong"] });
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 401, error: "invalid_client" });
    expect(res.data.active).toBeUndefined();
  });

  it("a missing token is invalid_request", async () => {
    const res = await postForm(app, INTROSPECT, {}, { basic: [rp.client_id, rp.client_secret] });
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_request" });
  });
});

describe("RFC 7662 section 2.1: the caller's own refresh token", () => {
  it("is active with token_type_hint=refresh_token through openid-client, described by its grant", async () => {
    const issuedAt = Math.floor(clock.now() / 1000);
    const tokens = await obtainTokensRaw(app, user, rp, "openid profile offline_access");
    const info = await client.tokenIntrospection(rp.config, tokens.refresh_token as string, { token_type_hint: "refresh_token" });
    expect(info).toMatchObject({
      active: true,
      sub: user.user.id,
      scope: "openid profile offline_access",
      client_id: rp.client_id,
      iat: issuedAt,
      // Spec 3.2: 30 days from the grant, which rotation never extends.
      exp: issuedAt + 30 * 24 * 3600,
      iss: app.url,
      acr: "pwd",
      amr: ["pwd"],
    });
    // token_type and aud describe access tokens (RFC 6749 section 5.1, RFC 8707), not this one.
    expect(info.token_type).toBeUndefined();
    expect(info.aud).toBeUndefined();
  });

  it("is active without a hint, and with a wrong hint (the search goes on through every kind)", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    expect((await introspect(rp, tokens.refresh_token as string)).data).toMatchObject({ active: true, client_id: rp.client_id });
    expect((await introspect(rp, tokens.refresh_token as string, "access_token")).data.active).toBe(true);
    // ... and an access token with the refresh hint is still found.
    expect((await introspect(rp, tokens.access_token, "refresh_token")).data).toMatchObject({ active: true, token_type: "Bearer" });
  });

  it("is exactly {active:false} for another client, even with the hint", async () => {
    const theirs = await obtainTokensRaw(app, user, other, "openid offline_access");
    expect((await introspect(rp, theirs.refresh_token as string, "refresh_token")).data).toEqual({ active: false });
    expect((await introspect(other, theirs.refresh_token as string, "refresh_token")).data.active).toBe(true);
  });

  it("is inactive once rotated, and introspecting the old one does not count as a replay", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const rotated = await refresh(rp, tokens.refresh_token as string);
    expect(rotated.status).toBe(200);
    expect((await introspect(rp, tokens.refresh_token as string, "refresh_token")).data).toEqual({ active: false });
    expect((await introspect(rp, rotated.data.refresh_token, "refresh_token")).data.active).toBe(true);
    expect((await refresh(rp, rotated.data.refresh_token)).status).toBe(200);
  });

  it("is inactive once revoked (RFC 7009), with its grant's access token", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    await client.tokenRevocation(rp.config, tokens.refresh_token as string);
    expect((await introspect(rp, tokens.refresh_token as string, "refresh_token")).data).toEqual({ active: false });
    expect((await introspect(rp, tokens.access_token)).data).toEqual({ active: false });
  });

  it("is inactive once its user is disabled", async () => {
    const erin = await signUp(app, "erin");
    const tokens = await obtainTokensRaw(app, erin, rp, "openid offline_access");
    expect((await owner.bearer("PATCH", `/api/oauth/admin/users/${erin.user.id}`, { disabled: true })).status).toBe(200);
    expect((await introspect(rp, tokens.refresh_token as string, "refresh_token")).data).toEqual({ active: false });
  });

  it("is inactive after its 30 days", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    clock.advance(30 * 24 * 3600_000 - 1000);
    expect((await introspect(rp, tokens.refresh_token as string, "refresh_token")).data.active).toBe(true);
    clock.advance(1000);
    expect((await introspect(rp, tokens.refresh_token as string, "refresh_token")).data).toEqual({ active: false });
  });
});
