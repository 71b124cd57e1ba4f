import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { postForm, REDIRECT, type RegisteredApp } from "./oauth.fixtures.ts";
import { ACTION, approve, challengesWorld, GONE, NONCE, OPAQUE } from "./two-factor-challenges.fixtures.ts";
import { askChallenge, CHALLENGES, codeOf, info, newChallenge, type twoFactorWorld, VERIFY } from "./two-factor.fixtures.ts";

/* Spec 1 section 3: how an app asks for a 2FA challenge (the request table), and what the confirmation page is shown of it. */
const { cast, clock, code } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
let rp: RegisteredApp;
let owner: SignedUp;
beforeAll(() => ({ app, world, rp, owner } = cast));

describe("spec 1 '2FA challenge request' table", () => {
  it("client credentials as Basic: 201 with challenge_id, expires_at and a url that carries only the opaque id", async () => {
    const res = await askChallenge(app, rp, { action: ACTION, nonce: NONCE });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(res.data).sort()).toEqual(["challenge_id", "expires_at", "url"]);
    expect(res.data.challenge_id).toMatch(OPAQUE);
    expect(res.data.expires_at).toBe(Math.floor((clock.now() + 10 * 60_000) / 1000));
    expect(res.data.url).toBe(`${app.url}/2fa?challenge_id=${res.data.challenge_id}`);
    const url = new URL(res.data.url);
    expect([...url.searchParams.keys()]).toEqual(["challenge_id"]);
    // action and redirect_uri are pinned server-side, never carried in the page's URL
    expect(res.data.url).not.toContain("acme");
    expect(res.data.url).not.toContain("rp.example.com");
  });

  it("client credentials in the JSON body (client_id and client_secret) are accepted too", async () => {
    const res = await askChallenge(app, rp, { action: ACTION }, "body");
    expect(res.status).toBe(201);
    expect(res.data.challenge_id).toMatch(OPAQUE);
  });

  it("Basic and a body secret together are refused: one authentication method per request", async () => {
    const res = await askChallenge(app, rp, { client_secret: rp.client_secret }, "basic");
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
  });

  it("a wrong secret is 401 invalid_client with a Basic challenge, in the header or in the body", async () => {
    const basic = await askChallenge(app, { client_id: rp.client_id, client_secret: "not-the-secret" }, {});
    expect(basic.status).toBe(401);
    expect(basic.data).toEqual({ error: "invalid_client", error_description: "client authentication failed" });
    expect(basic.headers.get("www-authenticate")).toBe('Basic realm="cairn"');
    const body = await askChallenge(app, { client_id: rp.client_id, client_secret: "not-the-secret" }, {}, "body");
    expect(body.status).toBe(401);
    expect(body.data.error).toBe("invalid_client");
  });

  it("an unknown client, or a confidential client without its secret, is 401 invalid_client", async () => {
    expect((await askChallenge(app, { client_id: "no-such-client", client_secret: "x" }, {})).status).toBe(401);
    const noSecret = await askChallenge(app, { client_id: rp.client_id }, {}, "body");
    expect(noSecret.status).toBe(401);
    expect(noSecret.data.error).toBe("invalid_client");
    const nothing = await askChallenge(app, { client_id: rp.client_id }, {}, "none");
    expect(nothing.status).toBe(401);
    expect(nothing.data.error).toBe("invalid_client");
  });

  it("a public client authenticates with client_id alone and must send PKCE; its verify uses the verifier", async () => {
    const pub = await registerApp(owner, { public: true, name: "Public app" });
    const without = await askChallenge(app, { client_id: pub.client_id }, { action: ACTION }, "body");
    expect(without.status).toBe(400);
    expect(without.data).toEqual({ error: "invalid_request", error_description: "a public client must send code_challenge (PKCE, S256)" });
    const plain = await askChallenge(app, { client_id: pub.client_id }, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }, "body");
    expect(plain.status).toBe(400);
    expect(plain.data).toEqual({ error: "invalid_request", error_description: "code_challenge_method must be S256" });

    const ch = await newChallenge(app, { client_id: pub.client_id }, { client_id: pub.client_id });
    const res = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(res.status).toBe(200);
    const verifiedAt = Math.floor(clock.now() / 1000);
    const redeem = (form: Record<string, string>) =>
      postForm(app, VERIFY, { client_id: pub.client_id, code: codeOf(res.data.redirect_to), redirect_uri: REDIRECT, ...form });
    const noVerifier = await redeem({});
    expect(noVerifier.status).toBe(400);
    expect(noVerifier.data.error).toBe("invalid_grant");
    const ok = await redeem({ code_verifier: ch.verifier });
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ user_id: world.user.user.id, client_id: pub.client_id, verified_at: verifiedAt, action: ACTION, nonce: NONCE, method: "totp" });
  });

  it("a redirect_uri that is not registered on the app, or none, is 400 invalid_request", async () => {
    const other = await askChallenge(app, rp, { redirect_uri: "https://evil.example.com/callback" });
    expect(other.status).toBe(400);
    expect(other.data).toEqual({ error: "invalid_request", error_description: "redirect_uri is not registered for this client" });
    const prefix = await askChallenge(app, rp, { redirect_uri: `${REDIRECT}/more` });
    expect(prefix.status).toBe(400);
    expect(prefix.data.error).toBe("invalid_request");
    const missing = await askChallenge(app, rp, { redirect_uri: undefined });
    expect(missing.status).toBe(400);
    expect(missing.data).toEqual({ error: "invalid_request", error_description: 'missing required parameter "redirect_uri"' });
  });

  it("require_captcha must be a boolean", async () => {
    for (const value of ["yes", 1, "true", null]) {
      const res = await askChallenge(app, rp, { require_captcha: value });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "require_captcha must be a boolean" });
    }
    expect((await askChallenge(app, rp, { require_captcha: true })).status).toBe(201);
    expect((await askChallenge(app, rp, { require_captcha: false })).status).toBe(201);
  });

  it("action and nonce must be strings", async () => {
    const action = await askChallenge(app, rp, { action: 42 });
    expect(action.status).toBe(400);
    expect(action.data).toEqual({ error: "invalid_request", error_description: "action must be a string" });
    const nonce = await askChallenge(app, rp, { nonce: { x: 1 } });
    expect(nonce.status).toBe(400);
    expect(nonce.data).toEqual({ error: "invalid_request", error_description: "nonce must be a string" });
  });

  it("a body that is not JSON is 415, even with good credentials; malformed JSON or a non-object is 400", async () => {
    const form = await postForm(app, CHALLENGES, { redirect_uri: REDIRECT, action: ACTION }, { basic: [rp.client_id, rp.client_secret] });
    expect(form.status).toBe(415);
    expect(form.data).toEqual({ error: "invalid_request", error_description: "the body must be application/json" });
    const text = await postForm(app, CHALLENGES, JSON.stringify({ redirect_uri: REDIRECT }), {
      basic: [rp.client_id, rp.client_secret],
      contentType: "text/plain",
    });
    expect(text.status).toBe(415);
    const broken = await postForm(app, CHALLENGES, "{not json", { basic: [rp.client_id, rp.client_secret], contentType: "application/json" });
    expect(broken.status).toBe(400);
    expect(broken.data).toEqual({ error: "invalid_request", error_description: "the body is not valid JSON" });
    const array = await postForm(app, CHALLENGES, JSON.stringify([REDIRECT]), { basic: [rp.client_id, rp.client_secret], contentType: "application/json" });
    expect(array.status).toBe(400);
    expect(array.data).toEqual({ error: "invalid_request", error_description: "the body must be a JSON object" });
  });
});

describe("GET /api/oauth/2fa/info (ARCHITECTURE section 4)", () => {
  it("shows the page what it needs and never the redirect_uri; the action is verbatim", async () => {
    const action = `Transfer <b>"acme"</b> & delete 🗑️ ${"x".repeat(20)}`;
    const ch = await newChallenge(app, rp, { action });
    const res = await info(world.browser, ch.id);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      // Registered by the instance's first account, its admin: verified from the start (issue 42).
      client: { client_id: rp.client_id, name: "Test app", is_verified: true },
      action,
      expires_at: ch.answer.expires_at,
      methods: ["totp", "backup"],
      sudo_available: false,
      sudo_expires_at: null,
      sudo_ttl_minutes: 15,
      captcha_required: false,
      captcha_provider: "none",
      captcha_site_key: null,
    });
    expect(JSON.stringify(res.data)).not.toContain("rp.example.com");
  });

  it("an unknown challenge id is 404 not_found", async () => {
    const res = await info(world.browser, "no-such-challenge");
    expect(res.status).toBe(404);
    expect(res.data).toEqual(GONE);
  });
});
