import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser, REDIRECT } from "../helpers/oauth.ts";

let app: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
});
afterAll(() => app.stop());

const register = (token: string | null, body: unknown) =>
  fetch(`${app.url}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe("RFC 7591: dynamic client registration", () => {
  it("registers with openid-client using the session token as initial access token, and the client completes a flow", async () => {
    const config = await client.dynamicClientRegistration(
      new URL(app.url),
      // openid-client authenticates with client_secret_post unless told otherwise: register that method.
      {
        client_name: "Dynamic app",
        redirect_uris: [REDIRECT],
        scope: "openid profile",
        id_token_signed_response_alg: "ML-DSA-65",
        token_endpoint_auth_method: "client_secret_post",
      },
      undefined,
      { initialAccessToken: owner.token, execute: [client.allowInsecureRequests] },
    );
    const meta = config.clientMetadata();
    expect(meta.client_secret).toBeString();
    expect(meta.registration_access_token).toBeString();
    expect(meta.registration_client_uri).toBe(`${app.url}/api/oauth/register/${meta.client_id}`);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid profile", state: "x" });
    const tokens = await client.authorizationCodeGrant(config, await authorizeInBrowser(owner, url), { expectedState: "x" });
    expect(tokens.claims()?.preferred_username).toBe("owner");
  });

  it("accepts a personal access token with apps:write, and refuses one without it or no token", async () => {
    const writer = (await owner.browser.json("POST", "/api/oauth/me/tokens", { name: "w", scopes: ["apps:write"] })).data.secret;
    const reader = (await owner.browser.json("POST", "/api/oauth/me/tokens", { name: "r", scopes: ["apps:read"] })).data.secret;
    expect((await register(writer, { client_name: "By PAT", redirect_uris: [REDIRECT] })).status).toBe(201);
    expect((await register(reader, { client_name: "No", redirect_uris: [REDIRECT] })).status).toBe(403);
    expect((await register(null, { client_name: "No", redirect_uris: [REDIRECT] })).status).toBe(401);
  });

  it("answers invalid_redirect_uri and invalid_client_metadata per RFC 7591 section 3.2.2", async () => {
    const bad = await register(owner.token, { client_name: "x", redirect_uris: ["http://evil.example/cb"] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("invalid_redirect_uri");
    for (const body of [
      { client_name: "x", token_endpoint_auth_method: "magic" },
      { client_name: "x", response_types: ["token"] },
      { client_name: "x", scope: "openid nonsense" },
      { client_name: "x", id_token_signed_response_alg: "none" },
    ]) {
      const res = await register(owner.token, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("invalid_client_metadata");
    }
  });
});

describe("RFC 7592: client configuration endpoint", () => {
  it("reads, replaces and deletes with the registration access token only, rotating it on each answer", async () => {
    const created = await (await register(owner.token, { client_name: "Managed", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" })).json();
    const uri = created.registration_client_uri as string;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await fetch(uri)).status).toBe(401);
    expect((await fetch(uri, { headers: bearer(owner.token) })).status).toBe(401);

    const read = await fetch(uri, { headers: bearer(created.registration_access_token) });
    expect(read.status).toBe(200);
    const info = await read.json();
    expect(info).toMatchObject({ client_id: created.client_id, client_name: "Managed", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
    expect(info.client_secret).toBeUndefined();
    // Section 3: every answer carries the registration access token; this one is new, the old one ends.
    expect(info.registration_access_token).toBeString();
    expect((await fetch(uri, { headers: bearer(created.registration_access_token) })).status).toBe(401);

    // Section 2.2: PUT replaces; moving to a secret method issues a secret once.
    const put = (token: string, body: unknown) =>
      fetch(uri, { method: "PUT", headers: { ...bearer(token), "content-type": "application/json" }, body: JSON.stringify(body) });
    const replaced = await put(info.registration_access_token, {
      client_id: created.client_id,
      client_name: "Renamed",
      redirect_uris: ["https://rp.example.com/other"],
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(replaced.status).toBe(200);
    const after = await replaced.json();
    expect(after.redirect_uris).toEqual(["https://rp.example.com/other"]);
    expect(after.client_secret).toBeString();
    const omitted = await put(after.registration_access_token, { client_id: created.client_id, client_name: "No URIs" });
    expect((await omitted.json()).redirect_uris).toEqual([]); // omitted fields are emptied, not kept
    // That PUT rotated the token again: the one it used is spent.
    expect((await put(after.registration_access_token, { client_name: "x" })).status).toBe(401);
  });

  it("deletes with the current token", async () => {
    const created = await (await register(owner.token, { client_name: "Gone", redirect_uris: [REDIRECT] })).json();
    const uri = created.registration_client_uri as string;
    const auth = { authorization: `Bearer ${created.registration_access_token}` };
    expect((await fetch(uri, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await fetch(uri, { headers: auth })).status).toBe(401);
  });

  it("answers a PUT naming another client_id with 400", async () => {
    const created = await (await register(owner.token, { client_name: "Mine", redirect_uris: [REDIRECT] })).json();
    const res = await fetch(created.registration_client_uri, {
      method: "PUT",
      headers: { authorization: `Bearer ${created.registration_access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: "other", client_name: "x" }),
    });
    expect(res.status).toBe(400);
  });
});
