import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { accessTokenHash } from "../../src/oauth/protocol/dpop.ts";
import { authorizeCode, confidentialApp, postForm, publicApp, REDIRECT, type RegisteredApp, TOKEN, startOAuthWorld } from "./oauth.fixtures.ts";

const USERINFO = "/api/oauth/userinfo";

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => {
  ({ app, owner, user, rp } = await startOAuthWorld());
});
afterAll(() => app.stop());

type Key = Awaited<ReturnType<typeof generateKeyPair>>;
const newKey = (alg: "ES256" | "RS256" | "EdDSA" = "ES256") => generateKeyPair(alg, { extractable: true });

/** A DPoP proof (RFC 9449 section 4.2) made by hand, so each test can break exactly one part of it. */
async function proof(
  key: Key,
  claims: { htm: string; htu: string; ath?: string; nonce?: string; iat?: number; jti?: string },
  header: Record<string, unknown> = {},
) {
  const { iat, ...rest } = claims;
  return new SignJWT({ jti: crypto.randomUUID(), ...rest })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(key.publicKey), ...header })
    .setIssuedAt(iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}

/** A code flow whose token request carries a DPoP proof through openid-client; answers the tokens and the key. */
async function dpopTokens(target: RegisteredApp | Awaited<ReturnType<typeof publicApp>>, scope = "openid profile offline_access") {
  const keyPair = await client.randomDPoPKeyPair("ES256");
  const DPoP = client.getDPoPHandle(target.config, keyPair);
  const { verifier, state, callback } = await authorizeCode(user, target, scope);
  const tokens = await client.authorizationCodeGrant(target.config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
  return { tokens, keyPair, DPoP };
}

const userinfo = (headers: Record<string, string>) => fetch(app.url + USERINFO, { headers });

describe("RFC 9449 section 5: a token request with a proof", () => {
  it("answers token_type DPoP through openid-client, and userinfo takes the bound token with a proof", async () => {
    const { tokens, DPoP } = await dpopTokens(rp);
    expect(tokens.token_type.toLowerCase()).toBe("dpop");
    const info = await client.fetchUserInfo(rp.config, tokens.access_token, user.user.id, { DPoP });
    expect(info.sub).toBe(user.user.id);
  });

  it("binds the access token to the key's thumbprint: introspection shows cnf.jkt and token_type DPoP", async () => {
    const { tokens, keyPair } = await dpopTokens(rp);
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), "sha256");
    const info = await client.tokenIntrospection(rp.config, tokens.access_token);
    expect(info).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt } });
  });

  it("rotates a bound refresh token only with a proof from the same key (spec 4.3)", async () => {
    const { tokens, DPoP } = await dpopTokens(rp);
    const refresh = tokens.refresh_token as string;
    // Without a proof, and with another key's proof: refused, and the token is not spent.
    const bare = await postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: refresh }, { basic: [rp.client_id, rp.client_secret] });
    expect(bare.status).toBe(400);
    expect(bare.data.error).toBe("invalid_grant");
    const stranger = await newKey();
    const foreign = await postForm(
      app,
      TOKEN,
      { grant_type: "refresh_token", refresh_token: refresh },
      { basic: [rp.client_id, rp.client_secret], headers: { dpop: await proof(stranger, { htm: "POST", htu: app.url + TOKEN }) } },
    );
    expect(foreign.data.error).toBe("invalid_grant");
    const rotated = await client.refreshTokenGrant(rp.config, refresh, undefined, { DPoP });
    expect(rotated.token_type.toLowerCase()).toBe("dpop");
    const info = await client.fetchUserInfo(rp.config, rotated.access_token, user.user.id, { DPoP });
    expect(info.sub).toBe(user.user.id);
  });

  it("lets a public client bind its tokens too", async () => {
    const spa = await publicApp(app, owner);
    const { tokens, DPoP } = await dpopTokens(spa, "openid");
    expect(tokens.token_type.toLowerCase()).toBe("dpop");
    expect((await client.fetchUserInfo(spa.config, tokens.access_token, user.user.id, { DPoP })).sub).toBe(user.user.id);
  });

  it("refuses a token request whose proof is broken with invalid_dpop_proof, and spends nothing", async () => {
    const key = await newKey();
    const { code, verifier } = await authorizeCode(user, rp, "openid");
    const bad = await proof(key, { htm: "GET", htu: app.url + TOKEN });
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    const refused = await postForm(app, TOKEN, form, { basic: [rp.client_id, rp.client_secret], headers: { dpop: bad } });
    expect(refused.status).toBe(400);
    expect(refused.data).toEqual({ error: "invalid_dpop_proof", error_description: "the DPoP proof's htm must be POST" });
    const good = await postForm(app, TOKEN, form, {
      basic: [rp.client_id, rp.client_secret],
      headers: { dpop: await proof(key, { htm: "POST", htu: app.url + TOKEN }) },
    });
    expect(good.status).toBe(200);
    expect(good.data.token_type).toBe("DPoP");
  });
});

describe("RFC 9449 section 7: a bound token at a resource", () => {
  let token: string;
  let key: Key;
  beforeAll(async () => {
    key = await newKey();
    const { code, verifier } = await authorizeCode(user, rp, "openid profile");
    const res = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier },
      { basic: [rp.client_id, rp.client_secret], headers: { dpop: await proof(key, { htm: "POST", htu: app.url + TOKEN }) } },
    );
    token = res.data.access_token;
  });
  const atUserinfo = async (k: Key, extra: Record<string, unknown> = {}) =>
    proof(k, { htm: "GET", htu: app.url + USERINFO, ath: accessTokenHash(token), ...extra });

  it("is refused as plain Bearer with a DPoP challenge", async () => {
    const res = await userinfo({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toStartWith('DPoP realm="cairn", error="invalid_token", algs="RS256 ES256 EdDSA"');
  });

  it("is refused under the DPoP scheme without a proof, with another key's proof, or with a wrong ath", async () => {
    expect((await userinfo({ authorization: `DPoP ${token}` })).headers.get("www-authenticate")).toContain('error="invalid_dpop_proof"');
    const foreign = await userinfo({ authorization: `DPoP ${token}`, dpop: await atUserinfo(await newKey()) });
    expect(foreign.status).toBe(401);
    expect(((await foreign.json()) as { error_description: string }).error_description).toBe(
      "the DPoP proof's key is not the one the access token is bound to",
    );
    const wrongAth = await userinfo({ authorization: `DPoP ${token}`, dpop: await atUserinfo(key, { ath: accessTokenHash("another token") }) });
    expect(((await wrongAth.json()) as { error_description: string }).error_description).toBe("the DPoP proof's ath does not match the access token");
  });

  it("accepts a proof made by oauth4webapi's DPoP handle at userinfo", async () => {
    const as = await oauth.processDiscoveryResponse(new URL(app.url), await oauth.discoveryRequest(new URL(app.url), { [oauth.allowInsecureRequests]: true }));
    const c: oauth.Client = { client_id: rp.client_id };
    const handle = oauth.DPoP(c, { privateKey: key.privateKey as CryptoKey, publicKey: key.publicKey as CryptoKey });
    const res = await oauth.userInfoRequest(as, c, token, { DPoP: handle, [oauth.allowInsecureRequests]: true });
    const info = await oauth.processUserInfoResponse(as, c, user.user.id, res);
    expect(info.sub).toBe(user.user.id);
  });

  it("takes each proof once: of 50 identical requests at once exactly one passes", async () => {
    const once = await atUserinfo(key);
    const answers = await Promise.all(Array.from({ length: 50 }, () => userinfo({ authorization: `DPoP ${token}`, dpop: once })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 401)).toHaveLength(49);
  });

  it("refuses an unbound token under the DPoP scheme", async () => {
    const { code, verifier } = await authorizeCode(user, rp, "openid");
    const plain = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect(plain.data.token_type).toBe("Bearer");
    const res = await userinfo({ authorization: `DPoP ${plain.data.access_token}`, dpop: await atUserinfo(key) });
    expect(res.status).toBe(401);
    expect((await userinfo({ authorization: `Bearer ${plain.data.access_token}` })).status).toBe(200);
  });

  it("is refused under the DPoP scheme with no proof at all, or an empty one, at userinfo and at the resource API", async () => {
    for (const path of [USERINFO, "/api/oauth/me"])
      for (const dpop of [null, ""]) {
        const res = await fetch(app.url + path, { headers: { authorization: `DPoP ${token}`, ...(dpop === null ? {} : { dpop }) } });
        expect({ path, dpop, status: res.status, challenge: res.headers.get("www-authenticate")?.includes('error="invalid_dpop_proof"') }).toEqual({
          path,
          dpop,
          status: 401,
          challenge: true,
        });
      }
  });

  it("guards the resource API the same way", async () => {
    const path = "/api/oauth/me";
    const bearer = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(401);
    const withProof = await fetch(app.url + path, {
      headers: { authorization: `DPoP ${token}`, dpop: await proof(key, { htm: "GET", htu: app.url + path, ath: accessTokenHash(token) }) },
    });
    expect(withProof.status).toBe(200);
  });
});

describe("RFC 9449 section 5.2: dpop_bound_access_tokens", () => {
  it("makes a proof mandatory for the client's token requests", async () => {
    const strict = await confidentialApp(app, owner, { dpop_bound_access_tokens: true });
    expect((await owner.browser.json("GET", `/api/oauth/me/clients/${strict.client_id}`)).data.dpop_bound_access_tokens).toBe(true);
    const { code, verifier } = await authorizeCode(user, strict, "openid");
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    const bare = await postForm(app, TOKEN, form, { basic: [strict.client_id, strict.client_secret] });
    expect(bare.status).toBe(400);
    expect(bare.data.error).toBe("invalid_request");
    const key = await newKey();
    const bound = await postForm(app, TOKEN, form, {
      basic: [strict.client_id, strict.client_secret],
      headers: { dpop: await proof(key, { htm: "POST", htu: app.url + TOKEN }) },
    });
    expect(bound.data.token_type).toBe("DPoP");
  });
});

describe("discovery (RFC 9449 section 5.1, RFC 9728)", () => {
  it("names the proof algorithms in both metadata documents", async () => {
    const meta = (await (await fetch(`${app.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(meta.dpop_signing_alg_values_supported).toEqual(["RS256", "ES256", "EdDSA"]);
    const resource = (await (await fetch(`${app.url}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ dpop_signing_alg_values_supported: ["RS256", "ES256", "EdDSA"], dpop_bound_access_tokens_required: false });
  });
});

describe("RFC 9449 section 8: server nonces (CAIRN_DPOP_NONCE=true)", () => {
  let strictApp: TestApp;
  let strictUser: SignedUp;
  let strictRp: RegisteredApp;
  beforeAll(async () => {
    strictApp = await startApp({ env: { CAIRN_DPOP_NONCE: "true" } });
    const strictOwner = await signUp(strictApp, "owner");
    strictUser = await signUp(strictApp, "bob");
    strictRp = await confidentialApp(strictApp, strictOwner);
  });
  afterAll(() => strictApp.stop());

  it("asks for a nonce with use_dpop_nonce and DPoP-Nonce; openid-client retries with it and succeeds", async () => {
    const key = await newKey();
    const { code, verifier, state, callback } = await authorizeCode(strictUser, strictRp, "openid offline_access");
    const asked = await postForm(
      strictApp,
      TOKEN,
      { grant_type: "authorization_code", code: `${code}x`, redirect_uri: REDIRECT, code_verifier: verifier },
      { basic: [strictRp.client_id, strictRp.client_secret], headers: { dpop: await proof(key, { htm: "POST", htu: strictApp.url + TOKEN }) } },
    );
    expect(asked.status).toBe(400);
    expect(asked.data.error).toBe("use_dpop_nonce");
    expect(asked.headers.get("dpop-nonce")).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const DPoP = client.getDPoPHandle(strictRp.config, await client.randomDPoPKeyPair("ES256"));
    const tokens = await client.authorizationCodeGrant(strictRp.config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe("dpop");
    const info = await client.fetchUserInfo(strictRp.config, tokens.access_token, strictUser.user.id, { DPoP });
    expect(info.sub).toBe(strictUser.user.id);
    const rotated = await client.refreshTokenGrant(strictRp.config, tokens.refresh_token as string, undefined, { DPoP });
    expect(rotated.token_type.toLowerCase()).toBe("dpop");
  });
});
