import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import * as client from "openid-client";
import type { TestApp } from "../helpers/app.ts";
import { sha256Hex } from "../../src/shared/crypto.ts";
import { manualClock } from "../helpers/clock.ts";
import type { SignedUp } from "../helpers/identity.ts";
import {
  authorizeCode,
  basicAuth,
  confidentialApp,
  oauthErrorOf,
  obtainTokens,
  postForm,
  publicApp,
  REDIRECT,
  type RegisteredApp,
  startOAuthWorld,
  TOKEN,
  withToken,
} from "./oauth.fixtures.ts";

const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => ({ app, owner, user, rp } = await startOAuthWorld({ overrides: { clock } })));
afterAll(() => app.stop());

/** A fresh code for `who` at `registered`, and the form that would redeem it. */
async function freshCode(registered: RegisteredApp = rp, scope = "openid offline_access") {
  const { code, verifier } = await authorizeCode(user, registered, scope);
  return { code, verifier, form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier } };
}

const basic = (r: RegisteredApp = rp): [string, string] => [r.client_id, r.client_secret];

function expectOAuthError(res: { status: number; headers: Headers; data: any }, status: number, error: string) {
  expect({ status: res.status, error: res.data.error }).toEqual({ status, error });
  expect(res.data.error_description).toBeString();
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("RFC 6749 section 5.1: the successful token response", () => {
  it("client_secret_basic through openid-client: Bearer, expires_in, scope, refresh and ID token, no-store", async () => {
    let headers: Headers | null = null;
    const config = await client.discovery(new URL(app.url), rp.client_id, {}, client.ClientSecretBasic(rp.client_secret), {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: async (url: string, init: RequestInit) => {
        const res = await fetch(url, init);
        if (url.endsWith(TOKEN)) headers = res.headers;
        return res;
      },
    } as client.DiscoveryRequestOptions);
    const tokens = await obtainTokens(user, { config }, "openid offline_access");
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe("openid offline_access");
    expect(tokens.refresh_token).toBeString();
    expect(tokens.id_token).toBeString();
    const h = headers as Headers | null;
    expect(h?.get("cache-control")).toBe("no-store");
    expect(h?.get("pragma")).toBe("no-cache");
  });

  it("client_secret_post through openid-client", async () => {
    const postClient = await confidentialApp(app, owner, { token_endpoint_auth_method: "client_secret_post" }, "post");
    const tokens = await obtainTokens(user, postClient, "openid");
    expect(tokens.access_token).toBeString();
    expect(tokens.refresh_token).toBeUndefined(); // no offline_access
  });

  it("a public client (none) with PKCE through openid-client", async () => {
    const pub = await publicApp(app, owner);
    const tokens = await obtainTokens(user, pub, "openid profile");
    expect(tokens.scope).toBe("openid profile");
  });

  it("without openid there is no ID token", async () => {
    const { form } = await freshCode(rp, "profile");
    const res = await postForm(app, TOKEN, form, { basic: basic() });
    expect(res.status).toBe(200);
    expect(res.data.id_token).toBeUndefined();
    expect(res.data.scope).toBe("profile");
  });

  it("a client without the refresh_token grant gets no refresh token even with offline_access", async () => {
    const codeOnly = await confidentialApp(app, owner, { grant_types: ["authorization_code"] });
    const { form } = await freshCode(codeOnly);
    const res = await postForm(app, TOKEN, form, { basic: basic(codeOnly) });
    expect(res.status).toBe(200);
    expect(res.data.refresh_token).toBeUndefined();
  });
});

describe("RFC 6749 section 5.2: error responses and their status", () => {
  it("invalid_request (400): grant_type missing", async () => {
    expectOAuthError(await postForm(app, TOKEN, { code: "x" }, { basic: basic() }), 400, "invalid_request");
  });

  it("invalid_request (400): code or redirect_uri missing", async () => {
    const { form } = await freshCode();
    const { code: _, ...noCode } = form;
    expectOAuthError(await postForm(app, TOKEN, noCode, { basic: basic() }), 400, "invalid_request");
    const { redirect_uri: __, ...noRedirect } = form;
    expectOAuthError(await postForm(app, TOKEN, noRedirect, { basic: basic() }), 400, "invalid_request");
  });

  it("invalid_request (400): a repeated parameter", async () => {
    const { form } = await freshCode();
    expectOAuthError(await postForm(app, TOKEN, [...Object.entries(form), ["code", "other"]], { basic: basic() }), 400, "invalid_request");
    expectOAuthError(await postForm(app, TOKEN, [...Object.entries(form), ["grant_type", "authorization_code"]], { basic: basic() }), 400, "invalid_request");
    // The code was not touched by the refused requests.
    expect((await postForm(app, TOKEN, form, { basic: basic() })).status).toBe(200);
  });

  it("invalid_request (400): a body that is not application/x-www-form-urlencoded", async () => {
    const { form } = await freshCode();
    expectOAuthError(await postForm(app, TOKEN, JSON.stringify(form), { basic: basic(), contentType: "application/json" }), 400, "invalid_request");
    const multipart = new FormData();
    for (const [k, v] of Object.entries(form)) multipart.set(k, v);
    const res = await fetch(app.url + TOKEN, { method: "POST", headers: { authorization: basicAuth(...basic()) }, body: multipart });
    expectOAuthError({ status: res.status, headers: res.headers, data: await res.json() }, 400, "invalid_request");
  });

  it("invalid_request (400): two client authentication methods in one request", async () => {
    const { form } = await freshCode();
    expectOAuthError(await postForm(app, TOKEN, { ...form, client_secret: rp.client_secret }, { basic: basic() }), 400, "invalid_request");
  });

  it("invalid_client (401 with WWW-Authenticate Basic): unknown client or wrong secret by Basic", async () => {
    const { form } = await freshCode();
    for (const credentials of [
      ["no-such-client", "secret"],
      [rp.client_id, "wrong-secret"],
      [rp.client_id, ""],
    ] as [string, string][]) {
      const res = await postForm(app, TOKEN, form, { basic: credentials });
      expectOAuthError(res, 401, "invalid_client");
      expect(res.headers.get("www-authenticate")).toStartWith("Basic ");
    }
    expect((await postForm(app, TOKEN, form, { basic: basic() })).status).toBe(200);
  });

  it("invalid_client (401 with WWW-Authenticate): wrong secret in the body", async () => {
    const postClient = await confidentialApp(app, owner, { token_endpoint_auth_method: "client_secret_post" }, "post");
    const { form } = await freshCode(postClient);
    const res = await postForm(app, TOKEN, { ...form, client_id: postClient.client_id, client_secret: "wrong" });
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toBeString();
  });

  it("spec 1 section 5 rule 1: a secret is a secret, sent as Basic or as the client_secret form parameter (issue 11)", async () => {
    // Registered client_secret_basic, presents client_secret_post.
    const { form } = await freshCode();
    expect((await postForm(app, TOKEN, { ...form, client_id: rp.client_id, client_secret: rp.client_secret })).status).toBe(200);
    // Registered client_secret_post, presents Basic.
    const postClient = await confidentialApp(app, owner, { token_endpoint_auth_method: "client_secret_post" }, "post");
    const second = await freshCode(postClient);
    expect((await postForm(app, TOKEN, second.form, { basic: basic(postClient) })).status).toBe(200);
    // Either way, a wrong secret and no secret at all stay invalid_client.
    const third = await freshCode(postClient);
    const wrong = await postForm(app, TOKEN, third.form, { basic: [postClient.client_id, "wrong"] });
    expectOAuthError(wrong, 401, "invalid_client");
    expect(wrong.headers.get("www-authenticate")).toStartWith("Basic ");
    expectOAuthError(await postForm(app, TOKEN, { ...third.form, client_id: postClient.client_id }), 401, "invalid_client");
  });

  it("invalid_client (401): a public client that sends a secret", async () => {
    const pub = await publicApp(app, owner);
    const { code, verifier } = await authorizeCode(user, pub, "openid");
    const res = await postForm(app, TOKEN, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: pub.client_id,
      client_secret: "made-up",
    });
    expectOAuthError(res, 401, "invalid_client");
  });

  it("invalid_client (401): a request with no client authentication at all", async () => {
    const { form } = await freshCode();
    const { client_id: _, client_secret: __, ...bare } = form as Record<string, string>;
    const res = await postForm(app, TOKEN, bare);
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toContain("Basic");
  });

  it("invalid_grant (400): an unknown code", async () => {
    expectOAuthError(
      await postForm(app, TOKEN, { grant_type: "authorization_code", code: "not-a-code", redirect_uri: REDIRECT }, { basic: basic() }),
      400,
      "invalid_grant",
    );
  });

  it("invalid_grant (400): a code issued to another client", async () => {
    const other = await confidentialApp(app, owner);
    const { form } = await freshCode();
    expectOAuthError(await postForm(app, TOKEN, form, { basic: basic(other) }), 400, "invalid_grant");
  });

  it("invalid_grant (400): redirect_uri differs from the authorization request", async () => {
    const { form } = await freshCode();
    expectOAuthError(await postForm(app, TOKEN, { ...form, redirect_uri: `${REDIRECT}/other` }, { basic: basic() }), 400, "invalid_grant");
  });

  it("invalid_grant (400): a code used twice", async () => {
    const { form } = await freshCode();
    expect((await postForm(app, TOKEN, form, { basic: basic() })).status).toBe(200);
    expectOAuthError(await postForm(app, TOKEN, form, { basic: basic() }), 400, "invalid_grant");
  });

  it("unauthorized_client (400): a grant type the client may not use", async () => {
    const codeOnly = await confidentialApp(app, owner, { grant_types: ["authorization_code"] });
    expectOAuthError(
      await postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: "whatever" }, { basic: basic(codeOnly) }),
      400,
      "unauthorized_client",
    );
  });

  it("unsupported_grant_type (400): a grant type this server does not know", async () => {
    // client_credentials became known with issue 11 (its own tests are in client-credentials.test.ts).
    for (const grantType of ["password", "implicit", "urn:example:custom"])
      expectOAuthError(await postForm(app, TOKEN, { grant_type: grantType }, { basic: basic() }), 400, "unsupported_grant_type");
  });

  it("invalid_scope (400): a refresh asking for more than was granted", async () => {
    const { form } = await freshCode(rp, "openid offline_access");
    const tokens = (await postForm(app, TOKEN, form, { basic: basic() })).data;
    expectOAuthError(
      await postForm(
        app,
        TOKEN,
        { grant_type: "refresh_token", refresh_token: tokens.refresh_token, scope: "openid offline_access email" },
        { basic: basic() },
      ),
      400,
      "invalid_scope",
    );
  });

  it("openid-client reports the server's error code", async () => {
    const other = await confidentialApp(app, owner);
    const { callback, verifier, state } = await authorizeCode(user, rp, "openid");
    expect(await oauthErrorOf(client.authorizationCodeGrant(other.config, callback, { pkceCodeVerifier: verifier, expectedState: state }))).toMatchObject({
      error: "invalid_grant",
      status: 400,
    });
  });
});

describe("RFC 6749 section 4.1.2: the code lives 60 seconds (ARCHITECTURE section 4)", () => {
  it("is accepted just before 60 seconds", async () => {
    const { form } = await freshCode();
    clock.advance(59_000);
    expect((await postForm(app, TOKEN, form, { basic: basic() })).status).toBe(200);
  });

  it("is invalid_grant at 60 seconds and after", async () => {
    const { form } = await freshCode();
    clock.advance(60_000);
    expectOAuthError(await postForm(app, TOKEN, form, { basic: basic() }), 400, "invalid_grant");
  });
});

describe("RFC 6749 section 4.1.2 and 10.5: one code, many concurrent redemptions", () => {
  it("of 50 parallel redemptions exactly one gets tokens; the reuse then revokes them", async () => {
    const { form } = await freshCode(rp, "openid offline_access");
    const answers = await Promise.all(Array.from({ length: 50 }, () => postForm(app, TOKEN, form, { basic: basic() })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 400, error: "invalid_grant" });
    const tokens = ok[0]?.data;
    // The code was presented again after it was used: the grant its first use created is revoked.
    expect((await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo")).status).toBe(401);
    expectOAuthError(
      await postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, { basic: basic() }),
      400,
      "invalid_grant",
    );
  });

  it("a redemption refused after the code was taken burns the code: presented again it is already used, and no grant was made", async () => {
    const { form } = await freshCode(rp, "openid offline_access");
    const grants = async () => (await app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM oauth_grants`))[0]?.n;
    const consumed = async () =>
      (await app.ctx.db.all<{ consumed_at: number | null }>(sql`SELECT consumed_at FROM authorization_codes WHERE code_hash = ${sha256Hex(form.code)}`))[0]
        ?.consumed_at;
    const before = await grants();
    expect(await consumed()).toBeNull();
    expectOAuthError(await postForm(app, TOKEN, { ...form, redirect_uri: `${REDIRECT}/elsewhere` }, { basic: basic() }), 400, "invalid_grant");
    expect(await consumed()).toBeNumber();
    expectOAuthError(await postForm(app, TOKEN, form, { basic: basic() }), 400, "invalid_grant");
    expect(await grants()).toBe(before);
  });

  it("grants are named in the order they are made (UUIDv7), so each lands at the end of the id index", async () => {
    const made: string[] = [];
    const { db } = app.ctx;
    const grantIds = async () => new Set((await db.all<{ id: string }>(sql`SELECT id FROM oauth_grants`)).map((g) => g.id));
    for (let i = 0; i < 3; i++) {
      const { form } = await freshCode(rp, "openid");
      const before = await grantIds();
      const tokens = (await postForm(app, TOKEN, form, { basic: basic() })).data;
      const [code] = await db.all<{ grant_id: string }>(sql`SELECT grant_id FROM authorization_codes WHERE code_hash = ${sha256Hex(form.code)}`);
      const added = [...(await grantIds())].filter((id) => !before.has(id));
      expect(tokens.access_token).toBeString();
      // The one grant made is the one the code names (a replay revokes it).
      expect(added).toEqual([code?.grant_id as string]);
      made.push(added[0] as string);
    }
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(3);
  });

  it("a code redeemed once and presented again later revokes the tokens of the first redemption", async () => {
    const { form } = await freshCode(rp, "openid");
    const first = await postForm(app, TOKEN, form, { basic: basic() });
    const userinfo = withToken(app, first.data.access_token);
    expect((await userinfo("GET", "/api/oauth/userinfo")).status).toBe(200);
    expect((await postForm(app, TOKEN, form, { basic: basic() })).status).toBe(400);
    expect((await userinfo("GET", "/api/oauth/userinfo")).status).toBe(401);
  });
});
