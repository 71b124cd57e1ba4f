import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { ml_dsa65 } from "@noble/post-quantum/ml-dsa.js";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser, discover, REDIRECT, registerApp } from "../helpers/oauth.ts";

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice", { name: "Alice Liddell" });
});
afterAll(() => app.stop());

/** Verifies an ML-DSA-65 JWS with @noble/post-quantum against the JWKS: the second implementation. */
async function verifyWithNoble(jwt: string) {
  const { kid } = decodeProtectedHeader(jwt);
  const jwks = (await app.json("GET", "/.well-known/jwks.json")).data.keys as { kid: string; pub: string }[];
  const key = jwks.find((k) => k.kid === kid) as { pub: string };
  const [h, p, s] = jwt.split(".") as [string, string, string];
  return ml_dsa65.verify(Buffer.from(s, "base64url"), new TextEncoder().encode(`${h}.${p}`), Buffer.from(key.pub, "base64url"));
}

describe("authorization code flow with openid-client", () => {
  it("a confidential client (client_secret_basic) gets tokens, an ML-DSA-65 ID token and userinfo", async () => {
    const registered = await registerApp(owner);
    const config = await discover(app, registered.client_id, registered.client_secret);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const callback = await authorizeInBrowser(user, url);
    expect(callback.searchParams.get("iss")).toBe(app.url);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeString();
    expect(tokens.scope).toBe("openid profile email offline_access");
    const claims = tokens.claims() as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: app.url,
      sub: user.user.id,
      aud: registered.client_id,
      nonce,
      role: "user",
      name: "Alice Liddell",
      preferred_username: "alice",
      email: "alice@example.com",
      email_verified: false,
      acr: "pwd",
      amr: ["pwd"],
    });
    expect(typeof claims.sid).toBe("string");
    expect(typeof claims.auth_time).toBe("number");

    const idToken = tokens.id_token as string;
    expect(decodeProtectedHeader(idToken).alg).toBe("ML-DSA-65");
    const jwks = createRemoteJWKSet(new URL(`${app.url}/.well-known/jwks.json`));
    expect((await jwtVerify(idToken, jwks, { issuer: app.url, audience: registered.client_id })).payload.sub).toBe(user.user.id);
    expect(await verifyWithNoble(idToken)).toBe(true);

    const info = await client.fetchUserInfo(config, tokens.access_token, user.user.id);
    expect(info).toMatchObject({ sub: user.user.id, name: "Alice Liddell", preferred_username: "alice", email: "alice@example.com" });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("a public client with PKCE (token_endpoint_auth_method none) and an RS256 ID token", async () => {
    const registered = await registerApp(owner, { public: true, id_token_signed_response_alg: "RS256" });
    expect(registered.client_secret).toBeUndefined();
    const config = await discover(app, registered.client_id, undefined, { id_token_signed_response_alg: "RS256" });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const tokens = await client.authorizationCodeGrant(config, await authorizeInBrowser(user, url), { pkceCodeVerifier: verifier });
    expect(decodeProtectedHeader(tokens.id_token as string).alg).toBe("RS256");
    const jwks = createRemoteJWKSet(new URL(`${app.url}/.well-known/jwks.json`));
    await jwtVerify(tokens.id_token as string, jwks, { issuer: app.url, audience: registered.client_id, algorithms: ["RS256"] });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it("skips consent the second time for the same scopes, and asks again with prompt=consent", async () => {
    const registered = await registerApp(owner);
    const config = await discover(app, registered.client_id, registered.client_secret);
    const build = (extra: Record<string, string> = {}) =>
      client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid profile", state: "s1", ...extra });
    await authorizeInBrowser(user, build());
    const again = await user.browser.fetch(build().pathname + build().search);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toStartWith(`${REDIRECT}?code=`);
    const forced = await user.browser.fetch(build({ prompt: "consent" }).pathname + build({ prompt: "consent" }).search);
    expect(forced.headers.get("location")).toStartWith("/consent?interaction=");
  });
});
