import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { discover } from "../helpers/oauth.ts";
import { authorizeCode, authorizePath, confidentialApp, postForm, publicApp, REDIRECT, TOKEN, visit } from "./oauth.fixtures.ts";

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let meta: Record<string, any>;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
  meta = (await app.json("GET", "/.well-known/openid-configuration")).data;
});
afterAll(() => app.stop());

describe("OpenID Connect Discovery 1.0 section 3 / RFC 8414", () => {
  it("names this issuer, and RFC 8414's document is the same", async () => {
    expect(meta.issuer).toBe(app.url);
    const rfc8414 = await app.json("GET", "/.well-known/oauth-authorization-server");
    expect(rfc8414.status).toBe(200);
    expect(rfc8414.data).toEqual(meta);
  });

  it("advertises the RFC 9207 iss parameter, and the spec's back-channel flags", () => {
    expect(meta.authorization_response_iss_parameter_supported).toBe(true);
    expect(typeof meta.backchannel_logout_supported).toBe("boolean");
    expect(typeof meta.backchannel_logout_session_supported).toBe("boolean");
  });

  it("every advertised endpoint exists on this server (none answers 404)", async () => {
    const endpoints = ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "introspection_endpoint", "revocation_endpoint"];
    for (const name of endpoints) {
      const url = meta[name] as string;
      expect(url).toStartWith(`${app.url}/`);
      const method = ["token_endpoint", "introspection_endpoint", "revocation_endpoint"].includes(name) ? "POST" : "GET";
      const res = await fetch(url, {
        method,
        redirect: "manual",
        ...(method === "POST" ? { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" } : {}),
      });
      expect({ name, status: res.status }).not.toEqual({ name, status: 404 });
      expect(res.status).toBeLessThan(500);
    }
  });

  it("code_challenge_methods_supported is exactly S256, and plain is refused by the authorization endpoint", async () => {
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
    const rp = await confidentialApp(app, owner);
    const res = await visit(
      user,
      authorizePath({
        client_id: rp.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "openid",
        code_challenge: "a".repeat(43),
        code_challenge_method: "plain",
      }),
    );
    expect(callbackParams(res.location).get("error")).toBe("invalid_request");
  });

  it("response_types_supported is exactly code: another response type is unsupported_response_type", async () => {
    expect(meta.response_types_supported).toEqual(["code"]);
    const rp = await confidentialApp(app, owner);
    const res = await visit(user, authorizePath({ client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "id_token", scope: "openid" }));
    expect(callbackParams(res.location).get("error")).toBe("unsupported_response_type");
  });

  it("grant_types_supported are the grant types the token endpoint accepts", async () => {
    // Registered for every grant type served (only the code flow's pair is a client's default).
    const rp = await confidentialApp(app, owner, { grant_types: meta.grant_types_supported, client_credentials_scopes: ["jobs:run"] });
    for (const grantType of meta.grant_types_supported as string[]) {
      const res = await postForm(app, TOKEN, { grant_type: grantType }, { basic: [rp.client_id, rp.client_secret] });
      // client_credentials needs no parameter at all: it answers a token.
      if (grantType === "client_credentials") expect(res.status).toBe(200);
      else {
        expect(res.status).toBe(400);
        expect(res.data.error).toBe("invalid_request"); // known grant, missing its parameters
      }
    }
    const other = await postForm(app, TOKEN, { grant_type: "password" }, { basic: [rp.client_id, rp.client_secret] });
    expect(other.data.error).toBe("unsupported_grant_type");
  });

  it("each token_endpoint_auth_methods_supported value works at the token endpoint", async () => {
    const methods = meta.token_endpoint_auth_methods_supported as string[];
    expect(methods).toEqual(expect.arrayContaining(["client_secret_basic", "client_secret_post", "none"]));
    // private_key_jwt has its own suite (rfc7523-private-key-jwt.test.ts).
    for (const method of methods.filter((m) => m !== "private_key_jwt")) {
      const registered =
        method === "none"
          ? await publicApp(app, owner)
          : await confidentialApp(app, owner, { token_endpoint_auth_method: method }, method === "client_secret_post" ? "post" : "basic");
      const { code, verifier, state, callback } = await authorizeCode(user, registered, "openid");
      expect(code).toBeString();
      const tokens = await client.authorizationCodeGrant(registered.config, callback, { pkceCodeVerifier: verifier, expectedState: state });
      expect({ method, type: tokens.token_type.toLowerCase() }).toEqual({ method, type: "bearer" });
    }
  });

  it("id_token_signing_alg_values_supported are the algorithms ID tokens come signed with", async () => {
    expect(meta.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(["ML-DSA-65", "RS256"]));
    for (const alg of meta.id_token_signing_alg_values_supported as string[]) {
      const registered = await publicApp(app, owner, { id_token_signed_response_alg: alg });
      const config = await discover(app, registered.client_id, undefined, { id_token_signed_response_alg: alg });
      const { verifier, state, callback } = await authorizeCode(user, { config }, "openid");
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
      const header = JSON.parse(Buffer.from((tokens.id_token as string).split(".")[0] as string, "base64url").toString());
      expect(header.alg).toBe(alg);
    }
  });

  it("prompt_values_supported are the prompt values the authorization endpoint accepts", async () => {
    const rp = await confidentialApp(app, owner);
    for (const prompt of meta.prompt_values_supported as string[]) {
      const res = await visit(user, authorizePath({ client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "openid", prompt }));
      expect(res.status).toBe(302);
      const error = res.location?.startsWith(REDIRECT) ? callbackParams(res.location).get("error") : null;
      expect(error === null || error === "consent_required").toBe(true); // none: no consent yet; never invalid_request
    }
  });

  it("claims_supported is exactly the claims an ID token and userinfo carry by name (the flat per-team claims aside)", async () => {
    const rp = await confidentialApp(app, owner, {
      scopes: ["openid", "profile", "email", "teams:read", "apps:read", "domains:read", "gpg:read", "social:read"],
      oidc_fields: ["teams", "apps", "domains", "gpg_keys", "social_accounts"],
    });
    const supported = rp.config.serverMetadata().claims_supported as string[];
    expect(supported).toEqual(expect.arrayContaining(["domains", "gpg_keys", "social_accounts", "teams", "apps", "role", "acr", "amr", "sid", "auth_time"]));
    // Everything the user could have released: a picture, a team, a domain.
    expect((await user.browser.json("PATCH", "/api/oauth/me", { picture: "https://pics.example.com/alice.png" })).status).toBe(200);
    expect((await user.browser.json("POST", "/api/oauth/me/teams", { name: "Claimed" })).status).toBe(201);
    app.ctx.dns = { resolveTxt: async () => [] };
    expect((await user.browser.json("POST", "/api/oauth/me/domains", { domain: "alice-claims.example" })).status).toBe(201);

    const nonce = client.randomNonce();
    const scope = "openid profile email teams:read apps:read domains:read gpg:read social:read";
    const { verifier, state, callback } = await authorizeCode(user, rp, scope, { nonce });
    const tokens = await client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const info = await client.fetchUserInfo(rp.config, tokens.access_token, user.user.id);
    const named = (claims: object) => Object.keys(claims).filter((k) => !/_team_/.test(k));
    const issued = new Set([...named(tokens.claims() as object), ...named(info)]);
    expect([...issued].sort()).toEqual([...supported].sort());
  });

  it("scopes_supported lists the spec's scopes", () => {
    expect(meta.scopes_supported).toEqual(
      expect.arrayContaining(["openid", "profile", "email", "offline_access", "teams:read", "team:read", "site:team:read"]),
    );
  });
});

describe("JWKS (spec 1 section 2.5)", () => {
  it("publishes an ML-DSA-65 key (kty AKP) and an RS256 key, public parts only", async () => {
    const res = await app.json("GET", "/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/jwk-set+json");
    const keys = res.data.keys as Record<string, string>[];
    const mldsa = keys.find((k) => k.alg === "ML-DSA-65");
    const rsa = keys.find((k) => k.alg === "RS256");
    expect(mldsa).toMatchObject({ kty: "AKP", use: "sig" });
    expect(mldsa?.pub).toBeString();
    expect(rsa).toMatchObject({ kty: "RSA", use: "sig" });
    for (const key of keys) {
      expect(key.kid).toBeString();
      for (const secret of ["d", "p", "q", "dp", "dq", "qi", "priv", "seed"]) expect(key[secret]).toBeUndefined();
    }
  });
});

describe("RFC 9728: protected resource metadata", () => {
  it("names this server as the resource and its authorization server", async () => {
    const res = await app.json("GET", "/.well-known/oauth-protected-resource");
    expect(res.status).toBe(200);
    expect(res.data.resource).toBe(app.url);
    expect(res.data.authorization_servers).toEqual([app.url]);
    expect(res.data.scopes_supported).toEqual(expect.arrayContaining(["profile", "teams:read"]));
  });

  it("lists the scopes its resources recognise, openid included (issue 11 item 9)", async () => {
    const res = await app.json("GET", "/.well-known/oauth-protected-resource");
    expect(res.data.scopes_supported).toContain("openid");
    expect(res.data.scopes_supported).not.toContain("offline_access");
  });

  it("a 401 from a protected endpoint carries a Bearer challenge with resource_metadata", async () => {
    for (const path of ["/api/oauth/userinfo", "/api/oauth/me", "/api/oauth/me/teams"]) {
      const res = await fetch(app.url + path, { headers: { authorization: "Bearer not-a-token" } });
      expect(res.status).toBe(401);
      const challenge = res.headers.get("www-authenticate") ?? "";
      expect(challenge).toStartWith("Bearer ");
      expect(challenge).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource"`);
    }
  });
});

/** The query of a redirect to the client. */
function callbackParams(location: string | null): URLSearchParams {
  if (!location?.startsWith(REDIRECT)) throw new Error(`not a redirect to the client: ${location}`);
  return new URL(location).searchParams;
}
