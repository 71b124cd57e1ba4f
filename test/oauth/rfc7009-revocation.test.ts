import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeCode, confidentialApp, obtainTokensRaw, postForm, publicApp, REDIRECT, type RegisteredApp, TOKEN, withToken } from "./oauth.fixtures.ts";

const REVOKE = "/api/oauth/revoke";
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
let other: RegisteredApp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
  rp = await confidentialApp(app, owner);
  other = await confidentialApp(app, owner);
});
afterAll(() => app.stop());

const userinfoStatus = async (accessToken: string) => (await withToken(app, accessToken)("GET", "/api/oauth/userinfo")).status;
const refresh = (r: RegisteredApp, token: string) =>
  postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: token }, { basic: [r.client_id, r.client_secret] });
const revoke = (r: RegisteredApp, form: Record<string, string>) => postForm(app, REVOKE, form, { basic: [r.client_id, r.client_secret] });

describe("RFC 7009 section 2.1: revoking an access token", () => {
  it("through openid-client: the token stops working at once", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    expect(await userinfoStatus(tokens.access_token)).toBe(200);
    await client.tokenRevocation(rp.config, tokens.access_token);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });

  it("answers 200 with no-store, and a wrong token_type_hint is only a hint", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    const res = await revoke(rp, { token: tokens.access_token, token_type_hint: "refresh_token" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });

  it("a public client revokes its own tokens with its client_id alone", async () => {
    const pub = await publicApp(app, owner);
    const { code, verifier } = await authorizeCode(user, pub, "openid");
    const tokens = (
      await postForm(app, TOKEN, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: pub.client_id })
    ).data;
    expect((await postForm(app, REVOKE, { token: tokens.access_token, client_id: pub.client_id })).status).toBe(200);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });
});

describe("RFC 7009 section 2.1: revoking a refresh token ends its grant", () => {
  it("the refresh token and the access tokens issued with it all stop", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    expect((await revoke(rp, { token: tokens.refresh_token as string, token_type_hint: "refresh_token" })).status).toBe(200);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    const res = await refresh(rp, tokens.refresh_token as string);
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("spec 1 section 3.2: a superseded refresh token presented for revocation revokes the whole grant", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const rotated = (await refresh(rp, tokens.refresh_token as string)).data;
    expect(await userinfoStatus(rotated.access_token)).toBe(200);
    expect((await revoke(rp, { token: tokens.refresh_token as string })).status).toBe(200);
    expect(await userinfoStatus(rotated.access_token)).toBe(401);
    expect((await refresh(rp, rotated.refresh_token)).status).toBe(400);
  });
});

describe("RFC 7009 section 2.1: a client revokes only its own tokens", () => {
  it("another client's access and refresh tokens stay valid, and the answer is still 200", async () => {
    const theirs = await obtainTokensRaw(app, user, other, "openid offline_access");
    expect((await revoke(rp, { token: theirs.access_token })).status).toBe(200);
    expect((await revoke(rp, { token: theirs.refresh_token as string })).status).toBe(200);
    expect(await userinfoStatus(theirs.access_token)).toBe(200);
    expect((await refresh(other, theirs.refresh_token as string)).status).toBe(200);
  });

  it("an unknown token answers 200 (RFC 7009 section 2.2)", async () => {
    expect((await revoke(rp, { token: "never-issued" })).status).toBe(200);
  });
});

describe("RFC 7009 section 2.2.1: errors", () => {
  it("a missing token is invalid_request", async () => {
    const res = await revoke(rp, {});
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_request" });
  });

  it("a client that fails to authenticate gets invalid_client (401) and revokes nothing", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid");
    const res = await postForm(app, REVOKE, { token: tokens.access_token }, { basic: [rp.client_id, "wrong"] });
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 401, error: "invalid_client" });
    expect(res.headers.get("www-authenticate")).toStartWith("Basic ");
    expect(await userinfoStatus(tokens.access_token)).toBe(200);
  });
});
