import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { confidentialApp, postForm, publicApp, type RegisteredApp, TOKEN } from "./oauth.fixtures.ts";

const CC = "client_credentials";
let app: TestApp;
let owner: SignedUp;
let service: RegisteredApp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  service = await confidentialApp(app, owner, {
    name: "Backup robot",
    grant_types: ["authorization_code", "refresh_token", CC],
    client_credentials_scopes: ["backups:write", "backups:read"],
  });
});
afterAll(() => app.stop());

const introspect = (caller: RegisteredApp, token: string) =>
  postForm(app, "/api/oauth/introspect", { token }, { basic: [caller.client_id, caller.client_secret] });

describe("client credentials grant (RFC 6749 section 4.4) for service accounts", () => {
  it("issues a token whose subject is the client, through openid-client, without refresh or ID token", async () => {
    const tokens = await client.clientCredentialsGrant(service.config, { scope: "backups:read" });
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "backups:read", expires_in: 3600 });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();
    const info = await introspect(service, tokens.access_token);
    expect(info.data).toMatchObject({ active: true, sub: service.client_id, client_id: service.client_id, scope: "backups:read", aud: service.client_id });
  });

  it("grants every allowed scope when none is asked, and nothing beyond them", async () => {
    const all = await postForm(app, TOKEN, { grant_type: CC }, { basic: [service.client_id, service.client_secret] });
    expect(all.data.scope).toBe("backups:write backups:read");
    for (const scope of ["profile", "openid", "backups:delete", "team:read"]) {
      const res = await postForm(app, TOKEN, { grant_type: CC, scope }, { basic: [service.client_id, service.client_secret] });
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("invalid_scope");
    }
  });

  it("refuses user, team and site scopes for machine access at registration", async () => {
    for (const scope of ["profile", "teams:read", "team:read", "site:user:read", "admin:users:read", "app:x:*", "bad scope"]) {
      const res = await owner.browser.json("POST", "/api/oauth/me/clients", {
        name: "Robot",
        redirect_uris: [],
        grant_types: [CC],
        client_credentials_scopes: [scope],
      });
      expect(res.status).toBe(400);
    }
  });

  it("is not for user resources: the token opens no /api/oauth/me endpoint", async () => {
    const { access_token } = (await postForm(app, TOKEN, { grant_type: CC }, { basic: [service.client_id, service.client_secret] })).data;
    const res = await fetch(`${app.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(res.status).toBe(401);
  });

  it("is revocable by its client, and introspectable only by it", async () => {
    const { access_token } = (await postForm(app, TOKEN, { grant_type: CC }, { basic: [service.client_id, service.client_secret] })).data;
    const other = await confidentialApp(app, owner);
    expect((await introspect(other, access_token)).data).toEqual({ active: false });
    expect((await postForm(app, "/api/oauth/revoke", { token: access_token }, { basic: [other.client_id, other.client_secret] })).status).toBe(200);
    expect((await introspect(service, access_token)).data.active).toBe(true);
    await client.tokenRevocation(service.config, access_token);
    expect((await introspect(service, access_token)).data).toEqual({ active: false });
  });

  it("is listed on the app's page without the token values", async () => {
    const list = await owner.browser.json("GET", `/api/oauth/me/clients/${service.client_id}/machine-tokens`);
    expect(list.status).toBe(200);
    expect(list.data.tokens.length).toBeGreaterThan(0);
    expect(list.data.tokens[0]).toMatchObject({ scope: expect.any(String), dpop_bound: false });
    expect(JSON.stringify(list.data)).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it("is only for confidential clients that registered it", async () => {
    const plain = await confidentialApp(app, owner);
    expect((await postForm(app, TOKEN, { grant_type: CC }, { basic: [plain.client_id, plain.client_secret] })).data.error).toBe("unauthorized_client");
    const spa = await publicApp(app, owner, { grant_types: [CC] });
    expect((await postForm(app, TOKEN, { grant_type: CC, client_id: spa.client_id })).data.error).toBe("unauthorized_client");
  });
});
