import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import fc from "fast-check";
import * as client from "openid-client";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { checkResources, narrowedResources } from "../../src/oauth/protocol/resource.ts";
import { callbackParams, pkce, postForm, REDIRECT, type RegisteredApp, TOKEN, visit, startOAuthWorld } from "./oauth.fixtures.ts";

const A = "https://api.a.example/";
const B = "https://api.b.example/v1";
let app: TestApp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => {
  ({ app, user, rp } = await startOAuthWorld({}, { grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"] }));
});
afterAll(() => app.stop());

const introspect = (token: string) => postForm(app, "/api/oauth/introspect", { token }, { basic: [rp.client_id, rp.client_secret] });

/** A code flow through openid-client naming `resources` at authorization, and `atToken` at the token request. */
async function tokensFor(resources: string[], atToken: string[] = [], scope = "openid offline_access") {
  const { verifier, challenge } = await pkce();
  const params = new URLSearchParams({ redirect_uri: REDIRECT, scope, code_challenge: challenge, code_challenge_method: "S256", state: "s" });
  for (const r of resources) params.append("resource", r);
  const callback = await authorizeInBrowser(user, client.buildAuthorizationUrl(rp.config, params));
  const extra = new URLSearchParams();
  for (const r of atToken) extra.append("resource", r);
  return client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: "s" }, extra);
}

describe("RFC 8707: resource at authorization and token requests", () => {
  it("makes the granted resources the access token's audience (introspection aud)", async () => {
    const tokens = await tokensFor([A, B]);
    expect((await introspect(tokens.access_token)).data.aud).toEqual([A, B]);
  });

  it("lets the token request narrow to one of them", async () => {
    const tokens = await tokensFor([A, B], [B]);
    expect((await introspect(tokens.access_token)).data.aud).toBe(B);
  });

  it("keeps the client as the audience when no resource is named", async () => {
    const tokens = await tokensFor([]);
    expect((await introspect(tokens.access_token)).data.aud).toBe(rp.client_id);
  });

  it("lets a refresh narrow, never widen", async () => {
    const tokens = await tokensFor([A, B]);
    const narrowed = await client.refreshTokenGrant(rp.config, tokens.refresh_token as string, { resource: A });
    expect((await introspect(narrowed.access_token)).data.aud).toBe(A);
    const widened = await postForm(
      app,
      TOKEN,
      { grant_type: "refresh_token", refresh_token: narrowed.refresh_token as string, resource: "https://api.c.example/" },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect(widened.status).toBe(400);
    expect(widened.data.error).toBe("invalid_target");
    // The refused request did not spend the refresh token.
    const again = await client.refreshTokenGrant(rp.config, narrowed.refresh_token as string);
    expect((await introspect(again.access_token)).data.aud).toEqual([A, B]);
  });

  it("answers invalid_target at the client's redirect URI for a relative or fragment resource", async () => {
    for (const bad of ["/relative", "https://api.a.example/#frag", "not a uri"]) {
      const params = new URLSearchParams({
        client_id: rp.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "openid",
        state: "s",
        resource: bad,
      });
      const { challenge } = await pkce();
      params.set("code_challenge", challenge);
      params.set("code_challenge_method", "S256");
      const res = await visit(user, `/api/oauth/authorize?${params}`);
      expect(callbackParams(res.location).get("error")).toBe("invalid_target");
    }
  });

  it("takes repeated resources at PAR and device authorization too", async () => {
    const { challenge } = await pkce();
    const pushed = await postForm(
      app,
      "/api/oauth/par",
      [
        ["response_type", "code"],
        ["redirect_uri", REDIRECT],
        ["scope", "openid"],
        ["code_challenge", challenge],
        ["code_challenge_method", "S256"],
        ["resource", A],
        ["resource", B],
      ],
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect(pushed.status).toBe(201);
    const badPush = await postForm(
      app,
      "/api/oauth/par",
      { response_type: "code", redirect_uri: REDIRECT, scope: "openid", resource: "x#y" },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect(badPush.data.error).toBe("invalid_target");

    const device = await postForm(
      app,
      "/api/oauth/device_authorization",
      [
        ["scope", "openid"],
        ["resource", B],
      ],
      { basic: [rp.client_id, rp.client_secret] },
    );
    await user.browser.json("POST", "/api/oauth/device/decision", { user_code: device.data.user_code, decision: "approve" });
    const tokens = await postForm(
      app,
      TOKEN,
      { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: device.data.device_code },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect((await introspect(tokens.data.access_token)).data.aud).toBe(B);
  });
});

describe("resource checks (properties)", () => {
  it("accepts absolute URLs without fragment and refuses any with one", () => {
    fc.assert(
      fc.property(fc.webUrl({ withFragments: false, withQueryParameters: true }), fc.webFragments(), (url, fragment) => {
        expect(checkResources([url])).toEqual({ resources: [url] });
        expect(checkResources([url, `${url}#${fragment}`])).toEqual({ bad: `${url}#${fragment}` });
      }),
    );
  });

  it("narrows to a subset of what was granted, and refuses anything else", () => {
    const uri = fc.constantFrom(A, B, "https://c.example/", "https://d.example/");
    fc.assert(
      fc.property(fc.uniqueArray(uri), fc.uniqueArray(uri), (granted, asked) => {
        const got = narrowedResources(granted, asked);
        if (asked.length === 0) expect(got).toEqual(granted);
        else if (granted.length === 0 || asked.every((r) => granted.includes(r))) expect(got).toEqual(asked);
        else expect(got).toBeNull();
      }),
    );
  });
});
