import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createHash } from "node:crypto";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { confidentialApp, oauthErrorOf, postForm, publicApp, REDIRECT, type RegisteredApp, TOKEN } from "./oauth.fixtures.ts";

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let pub: Awaited<ReturnType<typeof publicApp>>;
let conf: RegisteredApp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
  pub = await publicApp(app, owner);
  conf = await confidentialApp(app, owner);
});
afterAll(() => app.stop());

const s256 = (verifier: string) => createHash("sha256").update(verifier, "ascii").digest("base64url");

/** A code for `rp` bound to `challenge` (or to none). */
async function codeFor(rp: { config: client.Configuration }, challenge: string | null) {
  const url = client.buildAuthorizationUrl(rp.config, {
    redirect_uri: REDIRECT,
    scope: "openid",
    state: "p",
    ...(challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
  });
  const callback = await authorizeInBrowser(user, url);
  return callback.searchParams.get("code") as string;
}

/** Redeems as the public client, with `verifier` (or none). */
function redeemPublic(code: string, verifier: string | null) {
  return postForm(app, TOKEN, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    client_id: pub.client_id,
    ...(verifier === null ? {} : { code_verifier: verifier }),
  });
}

describe("RFC 7636 section 4.6: the server verifies code_verifier against code_challenge", () => {
  it("accepts the RFC's own appendix B example end to end", async () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const code = await codeFor(pub, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const res = await redeemPublic(code, verifier);
    expect(res.status).toBe(200);
    expect(res.data.access_token).toBeString();
  });

  it("accepts verifiers of the shortest (43) and longest (128) length, of every unreserved character", async () => {
    for (const verifier of ["a".repeat(43), `${"A-._~z9".repeat(18)}xy`]) {
      expect(verifier.length === 43 || verifier.length === 128).toBe(true);
      const res = await redeemPublic(await codeFor(pub, s256(verifier)), verifier);
      expect({ length: verifier.length, status: res.status }).toEqual({ length: verifier.length, status: 200 });
    }
  });

  it("rejects a verifier that does not match the challenge (invalid_grant)", async () => {
    const verifier = client.randomPKCECodeVerifier();
    const code = await codeFor(pub, s256(verifier));
    const res = await redeemPublic(code, client.randomPKCECodeVerifier());
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("rejects a verifier that is too short, too long or has characters outside the unreserved set", async () => {
    for (const verifier of ["a".repeat(42), "a".repeat(129), `${"a".repeat(42)}+`, `${"a".repeat(42)} `]) {
      // The challenge is computed from the bad verifier itself, so only the format check can refuse it.
      const res = await redeemPublic(await codeFor(pub, s256(verifier)), verifier);
      expect({ verifier: verifier.length, status: res.status, error: res.data.error }).toEqual({
        verifier: verifier.length,
        status: 400,
        error: "invalid_grant",
      });
    }
  });

  it("rejects a missing verifier when the request had a challenge", async () => {
    const verifier = client.randomPKCECodeVerifier();
    const res = await redeemPublic(await codeFor(pub, s256(verifier)), null);
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("rejects a confidential client's redemption with no verifier, or an empty one, when its request had a challenge", async () => {
    const verifier = client.randomPKCECodeVerifier();
    for (const sent of [{}, { code_verifier: "" }] as Record<string, string>[]) {
      const code = await codeFor(conf, s256(verifier));
      const res = await postForm(
        app,
        TOKEN,
        { grant_type: "authorization_code", code, redirect_uri: REDIRECT, ...sent },
        { basic: [conf.client_id, conf.client_secret] },
      );
      expect({ sent, status: res.status, error: res.data.error }).toEqual({ sent, status: 400, error: "invalid_grant" });
    }
  });

  it("rejects a verifier when the request had no challenge (a confidential client may skip PKCE, not fake it)", async () => {
    const code = await codeFor(conf, null);
    const res = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: client.randomPKCECodeVerifier() },
      { basic: [conf.client_id, conf.client_secret] },
    );
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("a confidential client without PKCE still gets tokens", async () => {
    const code = await codeFor(conf, null);
    const res = await postForm(app, TOKEN, { grant_type: "authorization_code", code, redirect_uri: REDIRECT }, { basic: [conf.client_id, conf.client_secret] });
    expect(res.status).toBe(200);
  });

  it("openid-client sees invalid_grant for a wrong verifier", async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(pub.config, {
      redirect_uri: REDIRECT,
      scope: "openid",
      state: "q",
      code_challenge: s256(verifier),
      code_challenge_method: "S256",
    });
    const callback = await authorizeInBrowser(user, url);
    expect(
      await oauthErrorOf(client.authorizationCodeGrant(pub.config, callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: "q" })),
    ).toMatchObject({ error: "invalid_grant" });
  });
});
