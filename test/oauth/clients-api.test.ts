import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { oauthClients } from "../../src/oauth/clients/clients.table.ts";
import { patClient } from "../identity/teams.fixtures.ts";
import { authorizeCode, confidentialApp, obtainTokensRaw, postForm, REDIRECT, TOKEN, withToken } from "./oauth.fixtures.ts";

const CLIENTS = "/api/oauth/me/clients";
let app: TestApp;
let admin: SignedUp;
let alice: SignedUp;
let bob: SignedUp;
beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin");
  alice = await signUp(app, "alice");
  bob = await signUp(app, "bob");
});
afterAll(() => app.stop());

const VALID = { name: "My app", redirect_uris: [{ uri: REDIRECT, match: "equals" }] };
const snapshot = async () => JSON.stringify(await app.ctx.db.select().from(oauthClients).all());

describe("dashboard registration (ARCHITECTURE section 4, spec 1 section 2.1)", () => {
  it("creates a confidential client: 201, the secret shown this once with no-store, never again", async () => {
    const res = await alice.browser.json("POST", CLIENTS, { ...VALID, description: "Does things", oidc_fields: ["teams"], scopes: ["openid", "profile"] });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.data).toMatchObject({
      name: "My app",
      description: "Does things",
      public: false,
      token_endpoint_auth_method: "client_secret_basic",
      oidc_fields: ["teams"],
      scopes: ["openid", "profile"],
      is_verified: false,
    });
    expect(res.data.client_secret).toBeString();
    expect(res.data.client_secret.length).toBeGreaterThanOrEqual(32);
    const read = await alice.browser.json("GET", `${CLIENTS}/${res.data.client_id}`);
    expect(read.status).toBe(200);
    expect(read.data.client_secret).toBeUndefined();
    expect(JSON.stringify(read.data)).not.toContain(res.data.client_secret);
    const list = await alice.browser.json("GET", CLIENTS);
    expect(list.data.clients.map((c: { client_id: string }) => c.client_id)).toContain(res.data.client_id);
    expect(JSON.stringify(list.data)).not.toContain(res.data.client_secret);
    // Stored as a hash only.
    expect(await snapshot()).not.toContain(res.data.client_secret);
  });

  it("creates a public client with no secret and auth method none", async () => {
    const res = await alice.browser.json("POST", CLIENTS, { ...VALID, public: true });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ public: true, token_endpoint_auth_method: "none" });
    expect(res.data.client_secret).toBeUndefined();
  });

  it("defaults: equals match, the default scopes, ML-DSA-65 ID tokens, both grant types", async () => {
    const res = await alice.browser.json("POST", CLIENTS, { name: "Defaults", redirect_uris: [{ uri: REDIRECT }] });
    expect(res.data).toMatchObject({
      redirect_uris: [{ uri: REDIRECT, match: "equals" }],
      scopes: ["openid", "profile", "email", "offline_access"],
      id_token_signed_response_alg: "ML-DSA-65",
      grant_types: ["authorization_code", "refresh_token"],
    });
  });

  it("needs a signed-in caller", async () => {
    expect((await app.client().json("POST", CLIENTS, VALID)).status).toBe(401);
    expect((await app.client().json("GET", CLIENTS)).status).toBe(401);
  });
});

describe("validation: every metadata field is checked, and a refused request changes nothing", () => {
  const long = (n: number) => "x".repeat(n);
  const bad: [string, Record<string, unknown>][] = [
    ["name missing", { redirect_uris: VALID.redirect_uris }],
    ["name blank", { ...VALID, name: "   " }],
    ["name too long", { ...VALID, name: long(101) }],
    ["name not a string", { ...VALID, name: 42 }],
    ["description too long", { ...VALID, description: long(501) }],
    ["redirect_uris not an array", { ...VALID, redirect_uris: REDIRECT }],
    ["redirect entry without uri", { ...VALID, redirect_uris: [{ match: "equals" }] }],
    ["redirect match type unknown", { ...VALID, redirect_uris: [{ uri: REDIRECT, match: "prefix" }] }],
    ["redirect equals over http to a non-loopback host", { ...VALID, redirect_uris: [{ uri: "http://rp.example.com/cb", match: "equals" }] }],
    ["redirect equals with a fragment", { ...VALID, redirect_uris: [{ uri: `${REDIRECT}#x`, match: "equals" }] }],
    ["redirect equals with userinfo", { ...VALID, redirect_uris: [{ uri: "https://u:p@rp.example.com/cb", match: "equals" }] }],
    ["redirect equals not a URL", { ...VALID, redirect_uris: [{ uri: "callback", match: "equals" }] }],
    ["redirect regex that does not compile", { ...VALID, redirect_uris: [{ uri: "https://(unclosed", match: "regex" }] }],
    ["redirect wildcard empty", { ...VALID, redirect_uris: [{ uri: "", match: "wildcard" }] }],
    ["more than 20 redirect URIs", { ...VALID, redirect_uris: Array.from({ length: 21 }, (_, i) => ({ uri: `${REDIRECT}/${i}`, match: "equals" })) }],
    ["public not a boolean", { ...VALID, public: "yes" }],
    ["token_endpoint_auth_method unknown", { ...VALID, token_endpoint_auth_method: "magic" }],
    ["public with a secret method", { ...VALID, public: true, token_endpoint_auth_method: "client_secret_basic" }],
    ["confidential with method none", { ...VALID, public: false, token_endpoint_auth_method: "none" }],
    ["grant_types unknown", { ...VALID, grant_types: ["implicit"] }],
    ["grant_types not an array", { ...VALID, grant_types: "authorization_code" }],
    ["jwks with no keys", { ...VALID, jwks: { keys: [] } }],
    ["jwks not a JWK Set", { ...VALID, jwks: { kty: "RSA" } }],
    ["jwks_uri over http", { ...VALID, jwks_uri: "http://rp.example.com/jwks" }],
    ["jwks_uri not a URL", { ...VALID, jwks_uri: "keys please" }],
    ["private_key_jwt without keys", { ...VALID, token_endpoint_auth_method: "private_key_jwt" }],
    ["id_token_signed_response_alg unknown", { ...VALID, id_token_signed_response_alg: "HS256" }],
    ["id_token_signed_response_alg none", { ...VALID, id_token_signed_response_alg: "none" }],
    ["post_logout_redirect_uris over http", { ...VALID, post_logout_redirect_uris: ["http://rp.example.com/bye"] }],
    ["post_logout_redirect_uris with a fragment", { ...VALID, post_logout_redirect_uris: [`${REDIRECT}#bye`] }],
    ["backchannel_logout_uri over http", { ...VALID, backchannel_logout_uri: "http://rp.example.com/logout" }],
    ["backchannel_logout_uri not a URL", { ...VALID, backchannel_logout_uri: "logout" }],
    ["oidc_fields unknown", { ...VALID, oidc_fields: ["passwords"] }],
    ["scopes unknown", { ...VALID, scopes: ["openid", "everything"] }],
    ["scopes not an array", { ...VALID, scopes: "openid" }],
  ];

  for (const [title, body] of bad) {
    it(`create refuses: ${title}`, async () => {
      const before = await snapshot();
      const res = await alice.browser.json("POST", CLIENTS, body);
      expect({ status: res.status, error: res.data.error }).toEqual({ status: 400, error: "invalid_request" });
      expect(res.data.error_description).toBeString();
      expect(await snapshot()).toBe(before);
    });
  }

  it("update refuses the same bad values, each leaving the client as it was", async () => {
    const created = (await alice.browser.json("POST", CLIENTS, VALID)).data;
    const before = await snapshot();
    for (const [title, body] of bad.filter(([t]) => !t.startsWith("name missing"))) {
      const res = await alice.browser.json("PATCH", `${CLIENTS}/${created.client_id}`, body);
      expect({ title, status: res.status }).toEqual({ title, status: 400 });
    }
    expect(await snapshot()).toBe(before);
  });

  it("a body that is not a JSON object is refused", async () => {
    const before = await snapshot();
    expect((await alice.browser.json("POST", CLIENTS, "{not json")).status).toBe(400);
    expect((await alice.browser.json("POST", CLIENTS, [VALID])).status).toBe(400);
    expect(await snapshot()).toBe(before);
  });
});

describe("update, secret rotation and delete", () => {
  it("updates the fields it is given and keeps the rest", async () => {
    const created = (await alice.browser.json("POST", CLIENTS, { ...VALID, description: "old" })).data;
    const res = await alice.browser.json("PATCH", `${CLIENTS}/${created.client_id}`, { name: "Renamed" });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ name: "Renamed", description: "old", redirect_uris: VALID.redirect_uris });
    expect(res.data.client_secret).toBeUndefined();
  });

  it("rotating the secret answers a new one once; the token endpoint refuses the old one at once", async () => {
    const rp = await confidentialApp(app, alice);
    const tokens = await obtainTokensRaw(app, bob, rp, "openid offline_access");
    const rotated = await alice.browser.json("POST", `${CLIENTS}/${rp.client_id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const fresh = rotated.data.client_secret as string;
    expect(fresh).not.toBe(rp.client_secret);
    const refresh = (secret: string) =>
      postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string }, { basic: [rp.client_id, secret] });
    const old = await refresh(rp.client_secret);
    expect({ status: old.status, error: old.data.error }).toEqual({ status: 401, error: "invalid_client" });
    expect((await refresh(fresh)).status).toBe(200);
    // The old secret fails everywhere a client authenticates.
    expect((await postForm(app, "/api/oauth/introspect", { token: tokens.access_token }, { basic: [rp.client_id, rp.client_secret] })).status).toBe(401);
  });

  it("a public client has no secret to rotate", async () => {
    const created = (await alice.browser.json("POST", CLIENTS, { ...VALID, public: true })).data;
    expect((await alice.browser.json("POST", `${CLIENTS}/${created.client_id}/secret`)).status).toBe(404);
  });

  it("deleting a client ends it: 404 afterwards, the token endpoint refuses it, its tokens stop", async () => {
    const rp = await confidentialApp(app, alice);
    const tokens = await obtainTokensRaw(app, bob, rp, "openid offline_access");
    const { code, verifier } = await authorizeCode(bob, rp, "openid");
    const res = await alice.browser.json("DELETE", `${CLIENTS}/${rp.client_id}`);
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    expect((await alice.browser.json("GET", `${CLIENTS}/${rp.client_id}`)).status).toBe(404);
    const redeemed = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect({ status: redeemed.status, error: redeemed.data.error }).toEqual({ status: 401, error: "invalid_client" });
    expect((await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo")).status).toBe(401);
    expect((await alice.browser.json("DELETE", `${CLIENTS}/${rp.client_id}`)).status).toBe(404);
  });
});

describe("ownership: another user's client is 404 and stays as it was", () => {
  it("bob cannot read, update, rotate or delete alice's client", async () => {
    const created = (await alice.browser.json("POST", CLIENTS, VALID)).data;
    const before = await snapshot();
    expect((await bob.browser.json("GET", `${CLIENTS}/${created.client_id}`)).status).toBe(404);
    expect((await bob.browser.json("PATCH", `${CLIENTS}/${created.client_id}`, { name: "Hijacked" })).status).toBe(404);
    expect((await bob.browser.json("POST", `${CLIENTS}/${created.client_id}/secret`)).status).toBe(404);
    expect((await bob.browser.json("DELETE", `${CLIENTS}/${created.client_id}`)).status).toBe(404);
    expect(await snapshot()).toBe(before);
    expect((await bob.browser.json("GET", CLIENTS)).data.clients.some((c: { client_id: string }) => c.client_id === created.client_id)).toBe(false);
  });

  it("even an admin's dashboard API answers 404 for someone else's client", async () => {
    const created = (await alice.browser.json("POST", CLIENTS, VALID)).data;
    expect((await admin.browser.json("GET", `${CLIENTS}/${created.client_id}`)).status).toBe(404);
  });
});

describe("scopes: apps:read reads, apps:write writes", () => {
  it("a personal access token with apps:read lists and reads but cannot write", async () => {
    const created = (await alice.browser.json("POST", CLIENTS, VALID)).data;
    const reader = await patClient(app, alice, ["apps:read"]);
    expect((await reader("GET", CLIENTS)).status).toBe(200);
    expect((await reader("GET", `${CLIENTS}/${created.client_id}`)).status).toBe(200);
    const before = await snapshot();
    for (const [method, path, body] of [
      ["POST", CLIENTS, VALID],
      ["PATCH", `${CLIENTS}/${created.client_id}`, { name: "Nope" }],
      ["POST", `${CLIENTS}/${created.client_id}/secret`, undefined],
      ["DELETE", `${CLIENTS}/${created.client_id}`, undefined],
    ] as [string, string, unknown][]) {
      const res = await reader(method, path, body);
      expect({ method, path, status: res.status, error: res.data.error }).toEqual({ method, path, status: 403, error: "insufficient_scope" });
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    }
    expect(await snapshot()).toBe(before);
  });

  it("a personal access token with apps:write registers an app", async () => {
    const writer = await patClient(app, alice, ["apps:write"]);
    const res = await writer("POST", CLIENTS, VALID);
    expect(res.status).toBe(201);
    expect(res.data.client_secret).toBeString();
  });

  it("a token without apps:read cannot list", async () => {
    const res = await (await patClient(app, alice, ["profile"]))("GET", CLIENTS);
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
  });
});

describe("the admin's verified mark: PATCH /api/oauth/admin/clients/:id", () => {
  it("an admin marks an app verified; the consent page then shows it", async () => {
    const rp = await confidentialApp(app, alice);
    const res = await admin.browser.json("PATCH", `/api/oauth/admin/clients/${rp.client_id}`, { is_verified: true });
    expect(res.status).toBe(200);
    expect(res.data.is_verified).toBe(true);
    expect((await alice.browser.json("GET", `${CLIENTS}/${rp.client_id}`)).data.is_verified).toBe(true);
  });

  it("a user who is not an admin cannot, and an unknown app is 404", async () => {
    const rp = await confidentialApp(app, alice);
    expect((await alice.browser.json("PATCH", `/api/oauth/admin/clients/${rp.client_id}`, { is_verified: true })).status).toBe(403);
    expect((await alice.browser.json("GET", `${CLIENTS}/${rp.client_id}`)).data.is_verified).toBe(false);
    expect((await admin.browser.json("PATCH", "/api/oauth/admin/clients/no-such-app", { is_verified: true })).status).toBe(404);
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/clients/${rp.client_id}`, { is_verified: "yes" })).status).toBe(400);
  });
});
