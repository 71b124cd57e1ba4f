import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { passkeys } from "../../src/identity/passkeys/passkeys.table.ts";
import { updateSiteConfig } from "../../src/identity/site/site-config.ts";
import type { TestApp } from "../helpers/app.ts";
import { startApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { confidentialApp, pkce, postForm, REDIRECT, type RegisteredApp } from "./oauth.fixtures.ts";
import { askChallenge, CHALLENGES, codeOf, confirm, INFO, newChallenge, SUDO_REVOKE, twoFactorWorld, VERIFY, verify } from "./two-factor.fixtures.ts";

type Browser = ReturnType<typeof jarFetch>;
type Challenge = Awaited<ReturnType<typeof newChallenge>>;

const ACTION = "Delete repository acme/site";
const NONCE = "n-123";
/** randomToken(32): 43 base64url characters. */
const OPAQUE = /^[A-Za-z0-9_-]{43}$/;
const GONE = {
  error: "not_found",
  error_description: "This confirmation request has expired or was already answered. Go back to the application and start again.",
};

const clock = manualClock();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
let rp: RegisteredApp;
let owner: SignedUp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  world = await twoFactorWorld(app, clock);
  ({ rp, owner } = world);
});
afterAll(() => app.stop());

/**
 * A fresh TOTP code for the world's user. The clock moves 75 seconds first: a time step's code
 * works once, and at this pace at most four codes fall in one 5-minute attempt window, which
 * leaves room for the wrong codes and sign-ins the tests add (8 attempts per 5 minutes).
 */
const code = async (secret = world.secret) => {
  clock.advance(75_000);
  return totpCode(secret, clock.now());
};

/** Six digits that are no code of the three time steps the server accepts now. */
async function wrongCode(secret: string) {
  const near = await Promise.all([-1, 0, 1].map((step) => totpCode(secret, clock.now(), step)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.includes(candidate)) return candidate;
  }
}

const info = (browser: Browser, id: string) => browser.json("GET", `${INFO}?challenge_id=${encodeURIComponent(id)}`);

const approve = (browser: Browser, ch: Challenge, extra: Record<string, unknown>) =>
  confirm(browser, { challenge_id: ch.id, state: ch.state, decision: "approve", confirmed: true, ...extra });

/** An app of the world's owner: its own sudo windows and its own creation-rate window. */
const anotherApp = (name = "Other app") => confidentialApp(app, owner, { name });

/** The world's user signs in again with password and code: a new session (cookie browser) and its JWT. */
async function signInAgain(username = world.user.user.username, secret = world.secret) {
  const browser = jarFetch(app.url);
  const res = await browser.json("POST", "/api/auth/login", { login: username, password: PASSWORD, code: await code(secret) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.data)}`);
  const token = res.data.session_token as string;
  return {
    browser,
    token,
    bearer: (method: string, path: string, body?: unknown) => app.client().json(method, path, body, { authorization: `Bearer ${token}` }),
  };
}

/** Confirms with a fresh TOTP code and opens the sudo window for the challenge's app on `browser`'s session. */
async function openWindow(browser: Browser, client: RegisteredApp) {
  const ch = await newChallenge(app, client);
  const res = await approve(browser, ch, { method: "totp", code: await code(), remember_sudo: true });
  if (res.status !== 200 || res.data.error) throw new Error(`opening a sudo window failed: ${res.status} ${JSON.stringify(res.data)}`);
  return { opened: clock.now(), ch, res };
}

const approvedRedirect = (ch: Challenge, redirectTo: string) => `${REDIRECT}?code=${codeOf(redirectTo)}&state=${ch.state}`;
const deniedRedirect = (ch: Challenge) => `${REDIRECT}?error=access_denied&state=${ch.state}`;

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
      client: { client_id: rp.client_id, name: "Test app", is_verified: false },
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

describe("spec 1 state table 3.3: every row", () => {
  it("created, the user confirms with TOTP: redirect to the pinned redirect_uri with code and state", async () => {
    const ch = await newChallenge(app, rp);
    const res = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    expect(codeOf(res.data.redirect_to)).toMatch(OPAQUE);
    // answered: the page and a second answer find nothing
    expect((await info(world.browser, ch.id)).status).toBe(404);
    expect((await approve(world.browser, ch, { method: "totp", code: await code() })).status).toBe(404);
  });

  it("created, the user confirms with a backup code: code and state, method backup; the backup code works once", async () => {
    const ch = await newChallenge(app, rp);
    const [backup] = world.backupCodes as [string];
    const res = await approve(world.browser, ch, { method: "backup", code: backup });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const verifiedAt = Math.floor(clock.now() / 1000);
    const result = await verify(app, rp, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toEqual({
      user_id: world.user.user.id,
      client_id: rp.client_id,
      verified_at: verifiedAt,
      action: ACTION,
      nonce: NONCE,
      method: "backup",
    });
    const again = await newChallenge(app, rp);
    const reused = await approve(world.browser, again, { method: "backup", code: backup });
    expect(reused.status).toBe(200);
    expect(reused.data).toEqual({
      redirect_to: deniedRedirect(again),
      error: "access_denied",
      error_description: "That backup code is not right or was already used. This confirmation is used up; the application has to ask again.",
    });
  });

  it("created, the user confirms through an open sudo window: code and state, method sudo", async () => {
    const client = await anotherApp("Sudo row app");
    await openWindow(world.browser, client);
    const ch = await newChallenge(app, client);
    const res = await approve(world.browser, ch, { method: "sudo" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const result = await verify(app, client, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.status).toBe(200);
    expect(result.data.method).toBe("sudo");
  });

  it("created, the user rejects: closed, redirect with error=access_denied and state", async () => {
    const ch = await newChallenge(app, rp);
    const res = await confirm(world.browser, { challenge_id: ch.id, state: ch.state, decision: "reject" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: deniedRedirect(ch), error: "access_denied", error_description: "You did not confirm the action." });
    expect(await info(world.browser, ch.id)).toMatchObject({ status: 404, data: GONE });
    const late = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(late.status).toBe(404);
    expect(late.data).toEqual(GONE);
  });

  it("created, a failed TOTP attempt: access_denied and the challenge is consumed (a right code then gets 404)", async () => {
    const ch = await newChallenge(app, rp);
    clock.advance(75_000);
    const res = await approve(world.browser, ch, { method: "totp", code: await wrongCode(world.secret) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      redirect_to: deniedRedirect(ch),
      error: "access_denied",
      error_description: "That code is not right. This confirmation is used up; the application has to ask again.",
    });
    const retry = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(retry.status).toBe(404);
    expect(retry.data).toEqual(GONE);
    expect((await info(world.browser, ch.id)).status).toBe(404);
  });

  it("created, the confirmation box is not ticked: 400, no attempt is made and the same challenge and code still work", async () => {
    const ch = await newChallenge(app, rp);
    const totp = await code();
    for (const confirmed of [false, undefined]) {
      const res = await approve(world.browser, ch, { method: "totp", code: totp, confirmed });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "Tick the box to confirm the action first." });
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
    const res = await approve(world.browser, ch, { method: "totp", code: totp });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
  });

  it("created, past the challenge expiry (10 minutes), answered: closed, access_denied with state", async () => {
    const ch = await newChallenge(app, rp);
    clock.advance(10 * 60_000 - 1);
    expect((await info(world.browser, ch.id)).status).toBe(200);
    clock.advance(1);
    const res = await approve(world.browser, ch, { method: "totp", code: "123456" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: deniedRedirect(ch), error: "access_denied", error_description: "The confirmation request expired." });
    // closed now: a second answer finds nothing
    expect((await approve(world.browser, ch, { method: "totp", code: "123456" })).status).toBe(404);
    expect(await info(world.browser, ch.id)).toMatchObject({ status: 404, data: GONE });
  });

  it("created, past the challenge expiry, its page opened: closed, and the page gets the app's access_denied redirect (410)", async () => {
    const ch = await newChallenge(app, rp);
    clock.advance(10 * 60_000);
    const opened = await world.browser.json("GET", `${INFO}?challenge_id=${encodeURIComponent(ch.id)}&state=${ch.state}`);
    expect(opened.status).toBe(410);
    expect(opened.data).toEqual({
      error: "expired",
      error_description: "This confirmation request expired before it was answered. Go back to the application and start again.",
      redirect_to: deniedRedirect(ch),
      client_name: "Test app",
    });
    // Told once: after that it is a closed challenge like any other.
    expect(await info(world.browser, ch.id)).toMatchObject({ status: 404, data: GONE });
    expect((await approve(world.browser, ch, { method: "totp", code: "123456" })).status).toBe(404);
  });

  describe("code issued: POST /api/oauth/2fa/verify", () => {
    /** A challenge approved with a code from a fresh TOTP step, at a known moment. */
    async function issued(body: Record<string, unknown> = {}, client: RegisteredApp = rp) {
      const ch = await newChallenge(app, client, body);
      const res = await approve(world.browser, ch, { method: "totp", code: await code() });
      if (res.status !== 200 || res.data.error) throw new Error(`approval failed: ${res.status} ${JSON.stringify(res.data)}`);
      return { ch, code: codeOf(res.data.redirect_to), verifiedAt: Math.floor(clock.now() / 1000) };
    }
    const refused = (res: { status: number; data: unknown }) => {
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_grant", error_description: "grant request is invalid" });
    };

    it("unused, unexpired, matching client, redirect_uri and verifier: the verified result with every field; single use", async () => {
      const nonce = "n".repeat(256);
      const { ch, code: c, verifiedAt } = await issued({ nonce, action: "Rotate the deploy key" });
      clock.advance(5 * 60_000 - 1);
      const res = await verify(app, rp, { code: c, code_verifier: ch.verifier });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.data).toEqual({
        user_id: world.user.user.id,
        client_id: rp.client_id,
        verified_at: verifiedAt,
        action: "Rotate the deploy key",
        nonce,
        method: "totp",
      });
      refused(await verify(app, rp, { code: c, code_verifier: ch.verifier }));
    });

    it("a challenge without action or nonce verifies with action '' and nonce null", async () => {
      const res = await askChallenge(app, rp, {});
      const ch = { id: res.data.challenge_id as string, state: "s-1", verifier: "", answer: res.data };
      const approved = await approve(world.browser, ch, { method: "totp", code: await code() });
      const result = await verify(app, rp, { code: codeOf(approved.data.redirect_to) });
      expect(result.status).toBe(200);
      expect(result.data).toMatchObject({ action: "", nonce: null, method: "totp" });
    });

    it("expired (5 minutes): invalid_grant", async () => {
      const { ch, code: c } = await issued();
      clock.advance(5 * 60_000 + 1000);
      refused(await verify(app, rp, { code: c, code_verifier: ch.verifier }));
    });

    it("another client: invalid_grant (and the code stays the right client's)", async () => {
      const other = await anotherApp("Code thief");
      const { ch, code: c } = await issued();
      refused(await verify(app, other, { code: c, code_verifier: ch.verifier }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("another redirect_uri: invalid_grant", async () => {
      const { ch, code: c } = await issued();
      refused(await verify(app, rp, { code: c, code_verifier: ch.verifier, redirect_uri: "https://rp.example.com/other" }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("a wrong PKCE verifier: invalid_grant", async () => {
      const { ch, code: c } = await issued();
      refused(await verify(app, rp, { code: c, code_verifier: (await pkce()).verifier }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("a missing PKCE verifier: invalid_grant", async () => {
      const { ch, code: c } = await issued();
      refused(await verify(app, rp, { code: c }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("a verifier for a challenge made without PKCE: invalid_grant", async () => {
      const res = await askChallenge(app, rp, { action: ACTION });
      const ch = { id: res.data.challenge_id as string, state: "s-2", verifier: "", answer: res.data };
      const approved = await approve(world.browser, ch, { method: "totp", code: await code() });
      const c = codeOf(approved.data.redirect_to);
      refused(await verify(app, rp, { code: c, code_verifier: (await pkce()).verifier }));
      expect((await verify(app, rp, { code: c })).status).toBe(200);
    });

    it("an unknown code is invalid_grant; a missing code is invalid_request; bad client credentials are invalid_client", async () => {
      refused(await verify(app, rp, { code: "no-such-code", code_verifier: (await pkce()).verifier }));
      const missing = await verify(app, rp, {});
      expect(missing.status).toBe(400);
      expect(missing.data.error).toBe("invalid_request");
      const badClient = await postForm(app, VERIFY, { code: "x", redirect_uri: REDIRECT }, { basic: [rp.client_id, "wrong"] });
      expect(badClient.status).toBe(401);
      expect(badClient.data.error).toBe("invalid_client");
    });
  });
});

describe("spec 1 state table 3.4: the sudo window", () => {
  it("none -> active: a TOTP confirmation with remember_sudo opens it; later challenges of that app confirm with method sudo", async () => {
    const client = await anotherApp("Window app");
    const session = await signInAgain();
    // without the opt-in nothing is remembered
    const plain = await newChallenge(app, client);
    await approve(session.browser, plain, { method: "totp", code: await code() });
    expect((await info(session.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(false);

    const { opened } = await openWindow(session.browser, client);
    const windows = await session.browser.json("GET", "/api/oauth/me/sudo");
    expect(windows.status).toBe(200);
    expect(windows.data.windows).toEqual([
      {
        client_id: client.client_id,
        client_name: "Window app",
        session_id: expect.any(String),
        this_device: true,
        user_agent: expect.any(String),
        created_at: opened,
        expires_at: opened + 15 * 60_000,
      },
    ]);
    const ch = await newChallenge(app, client);
    const page = await info(session.browser, ch.id);
    expect(page.data).toMatchObject({ sudo_available: true, sudo_expires_at: Math.floor((opened + 15 * 60_000) / 1000), sudo_ttl_minutes: 15 });
    const res = await approve(session.browser, ch, { method: "sudo" });
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const result = await verify(app, client, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toEqual({
      user_id: world.user.user.id,
      client_id: client.client_id,
      verified_at: Math.floor(clock.now() / 1000),
      action: ACTION,
      nonce: NONCE,
      method: "sudo",
    });
  });

  it("active: the sudo bypass still needs the ticked confirmation (400, challenge stays open)", async () => {
    const client = await anotherApp("Checkbox app");
    await openWindow(world.browser, client);
    const ch = await newChallenge(app, client);
    const res = await approve(world.browser, ch, { method: "sudo", confirmed: false });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "invalid_request", error_description: "Tick the box to confirm the action first." });
    const ok = await approve(world.browser, ch, { method: "sudo" });
    expect(ok.data).toEqual({ redirect_to: approvedRedirect(ch, ok.data.redirect_to) });
  });

  it("active: the sudo bypass never meets the captcha, even with the site's gate on; TOTP does", async () => {
    const client = await anotherApp("Gated sudo app");
    await openWindow(world.browser, client);
    updateSiteConfig(app.ctx, { captcha_provider: "pow", require_captcha_for_2fa: true, pow_difficulty: 8 });
    try {
      const ch = await newChallenge(app, client, { require_captcha: true });
      expect((await info(world.browser, ch.id)).data).toMatchObject({ captcha_required: true, captcha_provider: "pow", sudo_available: true });
      const totp = await approve(world.browser, ch, { method: "totp", code: "123456" });
      expect(totp.status).toBe(400);
      expect(totp.data).toEqual({ error: "invalid_request", error_description: "The proof of work is missing or malformed." });
      const res = await approve(world.browser, ch, { method: "sudo" });
      expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    } finally {
      updateSiteConfig(app.ctx, { captcha_provider: "none", require_captcha_for_2fa: false });
    }
  });

  it("sudo_mode_ttl_minutes 0: remember_sudo opens nothing, and an open window no longer counts", async () => {
    const client = await anotherApp("No sudo app");
    const earlier = await anotherApp("Earlier window app");
    await openWindow(world.browser, earlier);
    updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 0 });
    try {
      const ch = await newChallenge(app, client);
      const res = await approve(world.browser, ch, { method: "totp", code: await code(), remember_sudo: true });
      expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
      const ids = (await world.browser.json("GET", "/api/oauth/me/sudo")).data.windows.map((w: { client_id: string }) => w.client_id);
      expect(ids).not.toContain(client.client_id);
      for (const c of [client, earlier]) {
        const next = await newChallenge(app, c);
        expect((await info(world.browser, next.id)).data).toMatchObject({ sudo_available: false, sudo_expires_at: null, sudo_ttl_minutes: 0 });
        const sudo = await approve(world.browser, next, { method: "sudo" });
        expect(sudo.status).toBe(400);
        expect(sudo.data).toEqual({
          error: "invalid_request",
          error_description: "No confirmation is remembered for this app on this device any more. Confirm with a code or a passkey.",
        });
        expect((await info(world.browser, next.id)).status).toBe(200);
      }
    } finally {
      updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
    }
  });

  it("an admin who shortens the window shortens the open ones; turning sudo off ends them for good", async () => {
    const client = await anotherApp("Shortened app");
    await openWindow(world.browser, client);
    clock.advance(3 * 60_000);
    updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 2 });
    try {
      let ch = await newChallenge(app, client);
      expect((await info(world.browser, ch.id)).data.sudo_available).toBe(false);
      expect((await approve(world.browser, ch, { method: "sudo" })).status).toBe(400);
      updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
      ch = await newChallenge(app, client);
      expect((await info(world.browser, ch.id)).data.sudo_available).toBe(true);
      updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 0 });
      clock.advance(1);
      updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
      ch = await newChallenge(app, client);
      expect((await info(world.browser, ch.id)).data.sudo_available).toBe(false);
      expect(
        (await world.browser.json("GET", "/api/oauth/me/sudo")).data.windows.filter((w: { client_id: string }) => w.client_id === client.client_id),
      ).toEqual([]);
    } finally {
      updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
    }
  });

  it("active -> none when the TTL elapses", async () => {
    const client = await anotherApp("Short window app");
    const { opened } = await openWindow(world.browser, client);
    clock.set(opened + 15 * 60_000 - 1);
    const before = await newChallenge(app, client);
    expect((await info(world.browser, before.id)).data.sudo_available).toBe(true);
    clock.set(opened + 15 * 60_000);
    const after = await newChallenge(app, client);
    expect((await info(world.browser, after.id)).data.sudo_available).toBe(false);
    const res = await approve(world.browser, after, { method: "sudo" });
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
    // the challenge stayed open: it can still be confirmed with a factor
    const totp = await approve(world.browser, after, { method: "totp", code: await code() });
    expect(totp.data).toEqual({ redirect_to: approvedRedirect(after, totp.data.redirect_to) });
  });

  it("active -> none on POST /api/oauth/2fa/sudo/revoke with the session JWT as Bearer", async () => {
    const client = await anotherApp("Revoked window app");
    const session = await signInAgain();
    await openWindow(session.browser, client);
    expect((await info(session.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(true);

    expect((await app.client().json("POST", SUDO_REVOKE, { client_id: client.client_id })).status).toBe(401);
    const empty = await session.bearer("POST", SUDO_REVOKE, { client_id: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.error).toBe("invalid_request");
    const res = await session.bearer("POST", SUDO_REVOKE, { client_id: client.client_id });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true, ended: true });
    expect((await session.bearer("POST", SUDO_REVOKE, { client_id: client.client_id })).data).toEqual({ ok: true, ended: false });

    const ch = await newChallenge(app, client);
    expect((await info(session.browser, ch.id)).data.sudo_available).toBe(false);
    const sudo = await approve(session.browser, ch, { method: "sudo" });
    expect(sudo.status).toBe(400);
    expect(sudo.data.error).toBe("invalid_request");
    expect((await session.browser.json("GET", "/api/oauth/me/sudo")).data.windows).toEqual([]);
  });

  it("revoking names only the caller's own windows: another user's session_id ends nothing", async () => {
    const client = await anotherApp("Foreign revoke app");
    const session = await signInAgain();
    await openWindow(session.browser, client);
    const sid = (await session.browser.json("GET", "/api/auth/session")).data.session.sid as string;
    const stranger = await signUp(app, "stranger-sudo");
    const res = await stranger.bearer("POST", SUDO_REVOKE, { client_id: client.client_id, session_id: sid });
    expect(res.data).toEqual({ ok: true, ended: false });
    expect((await info(session.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(true);
  });

  it("active -> unreachable when the user logs out: signed in again (a new session), sudo is refused", async () => {
    const client = await anotherApp("Logout app");
    const session = await signInAgain();
    await openWindow(session.browser, client);
    const out = await session.browser.json("POST", "/api/auth/logout");
    expect(out.status).toBe(200);
    expect((await info(session.browser, (await newChallenge(app, client)).id)).status).toBe(401);

    const again = await signInAgain();
    const ch = await newChallenge(app, client);
    expect((await info(again.browser, ch.id)).data).toMatchObject({ sudo_available: false, sudo_expires_at: null });
    const sudo = await approve(again.browser, ch, { method: "sudo" });
    expect(sudo.status).toBe(400);
    expect(sudo.data.error).toBe("invalid_request");
    const listed = (await again.browser.json("GET", "/api/oauth/me/sudo")).data.windows.map((w: { client_id: string }) => w.client_id);
    expect(listed).not.toContain(client.client_id);
  });

  it("windows are per app: another app of the same user on the same session gets no sudo", async () => {
    const first = await anotherApp("First app");
    const second = await anotherApp("Second app");
    await openWindow(world.browser, first);
    const ch = await newChallenge(app, second);
    expect((await info(world.browser, ch.id)).data.sudo_available).toBe(false);
    const sudo = await approve(world.browser, ch, { method: "sudo" });
    expect(sudo.status).toBe(400);
    expect(sudo.data.error).toBe("invalid_request");
    expect((await info(world.browser, (await newChallenge(app, first)).id)).data.sudo_available).toBe(true);
  });

  it("windows are per session: the same user on another device gets no sudo", async () => {
    const client = await anotherApp("Device app");
    await openWindow(world.browser, client);
    const elsewhere = await signInAgain();
    const ch = await newChallenge(app, client);
    expect((await info(elsewhere.browser, ch.id)).data.sudo_available).toBe(false);
    expect((await approve(elsewhere.browser, ch, { method: "sudo" })).status).toBe(400);
    const mine = (await elsewhere.browser.json("GET", "/api/oauth/me/sudo")).data.windows.find((w: { client_id: string }) => w.client_id === client.client_id);
    expect(mine.this_device).toBe(false);
  });

  it("a backup-code confirmation with remember_sudo opens no window", async () => {
    const client = await anotherApp("Backup window app");
    const ch = await newChallenge(app, client);
    const res = await approve(world.browser, ch, { method: "backup", code: world.backupCodes[1], remember_sudo: true });
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const next = await newChallenge(app, client);
    expect((await info(world.browser, next.id)).data.sudo_available).toBe(false);
    expect((await approve(world.browser, next, { method: "sudo" })).status).toBe(400);
    const listed = (await world.browser.json("GET", "/api/oauth/me/sudo")).data.windows.map((w: { client_id: string }) => w.client_id);
    expect(listed).not.toContain(client.client_id);
  });

  it("a sudo confirmation with remember_sudo does not extend the window", async () => {
    const client = await anotherApp("No extension app");
    const { opened } = await openWindow(world.browser, client);
    clock.advance(10 * 60_000);
    const ch = await newChallenge(app, client);
    expect((await approve(world.browser, ch, { method: "sudo", remember_sudo: true })).status).toBe(200);
    clock.set(opened + 15 * 60_000);
    expect((await info(world.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(false);
  });
});

describe("spec 1 section 8 limits", () => {
  it("action: 200 characters are accepted and shown verbatim, 201 are refused; characters, not UTF-16 units", async () => {
    for (const action of ["a".repeat(200), "😀".repeat(200), `${"é".repeat(199)}😀`]) {
      const res = await askChallenge(app, rp, { action });
      expect(res.status).toBe(201);
      expect((await info(world.browser, res.data.challenge_id)).data.action).toBe(action);
    }
    for (const action of ["a".repeat(201), "😀".repeat(201), `${"a".repeat(200)}😀`]) {
      const res = await askChallenge(app, rp, { action });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "action is longer than 200 characters" });
    }
  });

  it("action: control characters, bidirectional overrides and lone surrogates are refused (what is read is what is meant)", async () => {
    for (const action of ["Delete\u202Eetis/emca", "Delete\nrepository", "Delete\u0000x", "Delete\u2066x\u2069", "x\ud800y"]) {
      const res = await askChallenge(app, rp, { action });
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("invalid_request");
    }
    const nonce = await askChallenge(app, rp, { action: "ok", nonce: "n\udc00" });
    expect(nonce.status).toBe(400);
    expect(nonce.data).toEqual({ error: "invalid_request", error_description: "nonce is not well-formed Unicode" });
    expect((await askChallenge(app, rp, { action: "Übertrag löschen: «acme/site» 🗑️ (ﬁnal)" })).status).toBe(201);
  });

  it("nonce: 256 characters are accepted, 257 are refused", async () => {
    expect((await askChallenge(app, rp, { nonce: "n".repeat(256) })).status).toBe(201);
    expect((await askChallenge(app, rp, { nonce: "🔑".repeat(256) })).status).toBe(201);
    for (const nonce of ["n".repeat(257), "🔑".repeat(257)]) {
      const res = await askChallenge(app, rp, { nonce });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "nonce is longer than 256 characters" });
    }
  });

  it("challenge creation: 60 a minute per client; the 61st is 429 with Retry-After while another client is served", async () => {
    const busy = await anotherApp("Busy app");
    const quiet = await anotherApp("Quiet app");
    for (let i = 0; i < 60; i++) {
      const res = await askChallenge(app, busy, { action: `#${i}` });
      if (res.status !== 201) throw new Error(`request ${i + 1} was refused: ${res.status}`);
    }
    clock.advance(20_000);
    const over = await askChallenge(app, busy, { action: "#61" });
    expect(over.status).toBe(429);
    expect(over.data).toEqual({ error: "too_many_requests", error_description: "At most 60 challenges a minute per client; try again later." });
    expect(over.headers.get("retry-after")).toBe("40");
    expect((await askChallenge(app, quiet, {})).status).toBe(201);
    clock.advance(40_000);
    expect((await askChallenge(app, busy, {})).status).toBe(201);
  });

  it("TOTP attempts: 8 per 5 minutes per user; the 9th is 429 and leaves its challenge open; later it is allowed again", async () => {
    const w = await twoFactorWorld(app, clock, "counted");
    clock.advance(5 * 60_000); // the enrolment's and the sign-in's attempts leave the window
    // one right code and seven wrong ones, each on its own challenge (a wrong one uses its challenge up)
    const first = await newChallenge(app, w.rp);
    expect((await approve(w.browser, first, { method: "totp", code: await totpCode(w.secret, clock.now()) })).data.error).toBeUndefined();
    for (let i = 0; i < 7; i++) {
      const ch = await newChallenge(app, w.rp);
      expect((await approve(w.browser, ch, { method: "totp", code: await wrongCode(w.secret) })).data.error).toBe("access_denied");
    }
    const ninth = await newChallenge(app, w.rp);
    const right = await totpCode(w.secret, clock.now(), 1);
    const limited = await approve(w.browser, ninth, { method: "totp", code: right });
    expect(limited.status).toBe(429);
    expect(limited.data).toEqual({ error: "too_many_attempts", error_description: "Too many attempts. Try again in 5 minute(s)." });
    expect(limited.headers.get("retry-after")).toBe("300");
    // backup codes count against the same limit
    const backup = await approve(w.browser, ninth, { method: "backup", code: w.backupCodes[0] });
    expect(backup.status).toBe(429);
    expect((await info(w.browser, ninth.id)).status).toBe(200);

    clock.advance(5 * 60_000 - 1);
    expect((await approve(w.browser, ninth, { method: "totp", code: await totpCode(w.secret, clock.now()) })).status).toBe(429);
    clock.advance(1);
    const res = await approve(w.browser, ninth, { method: "totp", code: await totpCode(w.secret, clock.now()) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ninth, res.data.redirect_to) });
  });

  it("the code lives 5 minutes: redeemable 1 ms before, refused at 5 minutes", async () => {
    const client = await anotherApp("Lifetime app");
    await openWindow(world.browser, client);
    const a = await newChallenge(app, client);
    const b = await newChallenge(app, client);
    const codeA = codeOf((await approve(world.browser, a, { method: "sudo" })).data.redirect_to);
    const codeB = codeOf((await approve(world.browser, b, { method: "sudo" })).data.redirect_to);
    clock.advance(5 * 60_000 - 1);
    expect((await verify(app, client, { code: codeA, code_verifier: a.verifier })).status).toBe(200);
    clock.advance(1);
    const late = await verify(app, client, { code: codeB, code_verifier: b.verifier });
    expect(late.status).toBe(400);
    expect(late.data.error).toBe("invalid_grant");
  });
});

describe("concurrency: challenge and code are each consumed atomically", () => {
  it("50 identical sudo approvals of one challenge at once: exactly one code, the rest 404", async () => {
    const client = await anotherApp("Race app");
    await openWindow(world.browser, client);
    const ch = await newChallenge(app, client);
    const answers = await Promise.all(Array.from({ length: 50 }, () => approve(world.browser, ch, { method: "sudo" })));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]?.data).toEqual({ redirect_to: approvedRedirect(ch, won[0]?.data.redirect_to) });
    expect(answers.filter((a) => a.status === 404 && a.data.error === "not_found")).toHaveLength(49);
  });

  it("50 identical backup-code approvals of one challenge at once: exactly one code, the rest 404; one backup code spent", async () => {
    const client = await anotherApp("Backup race app");
    const ch = await newChallenge(app, client);
    const backup = world.backupCodes[2] as string;
    const answers = await Promise.all(Array.from({ length: 50 }, () => approve(world.browser, ch, { method: "backup", code: backup })));
    expect(answers.filter((a) => a.status === 200 && a.data.error === undefined)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(49);
    // the backup code was used by the winner
    const again = await newChallenge(app, client);
    expect((await approve(world.browser, again, { method: "backup", code: backup })).data.error).toBe("access_denied");
  });

  it("50 identical verifies of one code at once: exactly one result, the rest invalid_grant", async () => {
    const client = await anotherApp("Verify race app");
    const ch = await newChallenge(app, client);
    const approved = await approve(world.browser, ch, { method: "totp", code: await code() });
    const c = codeOf(approved.data.redirect_to);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(app, client, { code: c, code_verifier: ch.verifier })));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]?.data.method).toBe("totp");
    expect(answers.filter((a) => a.status === 400 && a.data.error === "invalid_grant")).toHaveLength(49);
  });
});

describe("spec 1 section 5 rule 7: signed in, with a second factor", () => {
  let plain: SignedUp;
  beforeAll(async () => {
    plain = await signUp(app, "no-factor");
  });

  it("a user with neither TOTP nor a passkey: info 403 forbidden and approve 403; the challenge stays open", async () => {
    const ch = await newChallenge(app, rp);
    const page = await info(plain.browser, ch.id);
    expect(page.status).toBe(403);
    expect(page.data).toEqual({
      error: "forbidden",
      error_description: "Confirming an action needs a second factor: add an authenticator app or a passkey on your account page first.",
    });
    for (const method of ["totp", "backup", "sudo"]) {
      const res = await approve(plain.browser, ch, { method, code: "123456" });
      expect(res.status).toBe(403);
      expect(res.data.error).toBe("forbidden");
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("not signed in: info and authorize are 401", async () => {
    const ch = await newChallenge(app, rp);
    const anonymous = app.client();
    const page = await info(anonymous, ch.id);
    expect(page.status).toBe(401);
    expect(page.data.error).toBe("invalid_token");
    const res = await approve(anonymous, ch, { method: "totp", code: "123456" });
    expect(res.status).toBe(401);
    expect(res.data.error).toBe("invalid_token");
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("an access token is no session: 403 on info", async () => {
    const pat = (await world.browser.json("POST", "/api/oauth/me/tokens", { name: "t", scopes: ["profile"] })).data.secret as string;
    const ch = await newChallenge(app, rp);
    const res = await app.client().json("GET", `${INFO}?challenge_id=${ch.id}`, undefined, { authorization: `Bearer ${pat}` });
    expect(res.status).toBe(403);
    expect(res.data.error).toBe("forbidden");
  });

  it("a method the user does not have, or no method or code, is 400 and the challenge stays open", async () => {
    const ch = await newChallenge(app, rp);
    const cases: [Record<string, unknown>, string][] = [
      [{ method: "passkey", passkey: { challenge_id: "x", response: {} } }, "You have no passkey to confirm with."],
      [{}, "Choose how to confirm: totp, passkey, backup or sudo."],
      [{ method: "totp" }, "Enter the code."],
    ];
    for (const [body, description] of cases) {
      const res = await approve(world.browser, ch, body);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: description });
    }
    const unknown = await approve(world.browser, ch, { method: "sms", code: "123456" });
    expect(unknown.status).toBe(400);
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("an answer without a decision is 400, not an approval; the challenge stays open", async () => {
    const ch = await newChallenge(app, rp);
    const totp = await code();
    const res = await confirm(world.browser, { challenge_id: ch.id, state: ch.state, confirmed: true, method: "totp", code: totp });
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
    expect((await info(world.browser, ch.id)).status).toBe(200);
    const ok = await approve(world.browser, ch, { method: "totp", code: totp });
    expect(ok.data).toEqual({ redirect_to: approvedRedirect(ch, ok.data.redirect_to) });
  });
});

describe("the app's page: recent challenges for its owner", () => {
  it("lists each challenge's status and method, newest first; another user gets 404", async () => {
    const client = await anotherApp("Listed app");
    const path = `/api/oauth/me/clients/${client.client_id}/2fa-challenges`;
    const stamps: number[] = [];
    const step = () => {
      clock.advance(1000);
      stamps.push(clock.now());
    };
    step();
    const redeemed = await newChallenge(app, client, { action: "redeemed one" });
    const r = await approve(world.browser, redeemed, { method: "totp", code: await code() });
    const verifiedAt = clock.now(); // the dashboard's lists are in milliseconds, as every list of the account and app pages
    await verify(app, client, { code: codeOf(r.data.redirect_to), code_verifier: redeemed.verifier });
    step();
    const rejected = await newChallenge(app, client, { action: "rejected one" });
    await confirm(world.browser, { challenge_id: rejected.id, state: rejected.state, decision: "reject" });
    step();
    await newChallenge(app, client, { action: "open one", require_captcha: true });
    step();
    await newChallenge(app, client, { action: "expired one" });

    const list = await owner.browser.json("GET", path);
    expect(list.status).toBe(200);
    expect(list.data.challenges).toEqual([
      { created_at: stamps[3], action: "expired one", status: "created", method: null, verified_at: null, captcha: false },
      { created_at: stamps[2], action: "open one", status: "created", method: null, verified_at: null, captcha: true },
      { created_at: stamps[1], action: "rejected one", status: "closed", method: null, verified_at: null, captcha: false },
      { created_at: stamps[0], action: "redeemed one", status: "redeemed", method: "totp", verified_at: verifiedAt, captcha: false },
    ]);
    clock.advance(10 * 60_000);
    const later = (await owner.browser.json("GET", path)).data.challenges.map((c: { status: string }) => c.status);
    expect(later).toEqual(["expired", "expired", "closed", "redeemed"]);
    // who confirmed is not on the app's page
    expect(JSON.stringify(list.data)).not.toContain(world.user.user.id);

    const other = await world.browser.json("GET", path);
    expect(other.status).toBe(404);
    expect(other.data.error).toBe("not_found");
  });
});

/** A software authenticator: one P-256 key, stored as the user's passkey, signing WebAuthn assertions. */
function softwarePasskey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x as string, "base64url");
  const y = Buffer.from(jwk.y as string, "base64url");
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, CBOR-encoded by hand
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  const id = randomBytes(16).toString("base64url");
  let counter = 0;
  return {
    id,
    cose: cose.toString("base64url"),
    assert(challenge: string, rpId: string, origin: string) {
      counter++;
      const flags = Buffer.from([0x05]); // user present, user verified
      const count = Buffer.alloc(4);
      count.writeUInt32BE(counter);
      const authenticatorData = Buffer.concat([createHash("sha256").update(rpId).digest(), flags, count]);
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }));
      const signature = sign("sha256", Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]), privateKey);
      return {
        id,
        rawId: id,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          authenticatorData: authenticatorData.toString("base64url"),
          clientDataJSON: clientDataJSON.toString("base64url"),
          signature: signature.toString("base64url"),
        },
      };
    },
  };
}

describe("confirming with a passkey (a user with a passkey and no TOTP)", () => {
  let keyholder: SignedUp;
  let key: ReturnType<typeof softwarePasskey>;
  beforeAll(async () => {
    keyholder = await signUp(app, "keyholder");
    key = softwarePasskey();
    app.ctx.db
      .insert(passkeys)
      .values({
        id: key.id,
        userId: keyholder.user.id,
        name: "Soft key",
        publicKey: key.cose,
        counter: 0,
        transports: ["internal"],
        deviceType: "singleDevice",
        backedUp: false,
        createdAt: clock.now(),
      })
      .run();
  });

  const passkeyProof = async (ch: Challenge) => {
    const options = await keyholder.browser.json("POST", "/api/oauth/2fa/passkey-options", { challenge_id: ch.id });
    if (options.status !== 200) throw new Error(`passkey options failed: ${options.status} ${JSON.stringify(options.data)}`);
    return { challenge_id: options.data.challenge_id as string, response: key.assert(options.data.options.challenge, options.data.options.rpId, app.url) };
  };

  it("info offers the passkey; a signed assertion confirms with method passkey and can open the sudo window", async () => {
    const client = await anotherApp("Passkey app");
    const ch = await newChallenge(app, client);
    expect((await info(keyholder.browser, ch.id)).data.methods).toEqual(["passkey"]);
    const res = await approve(keyholder.browser, ch, { method: "passkey", passkey: await passkeyProof(ch), remember_sudo: true });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const result = await verify(app, client, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toMatchObject({ user_id: keyholder.user.id, method: "passkey" });
    const next = await newChallenge(app, client);
    expect((await info(keyholder.browser, next.id)).data.sudo_available).toBe(true);
    expect((await approve(keyholder.browser, next, { method: "sudo" })).status).toBe(200);
  });

  it("a passkey assertion that does not verify: access_denied and the challenge is consumed", async () => {
    const ch = await newChallenge(app, rp);
    const proof = await passkeyProof(ch);
    const forged = { ...proof, response: { ...proof.response, response: { ...proof.response.response, signature: Buffer.alloc(70).toString("base64url") } } };
    const res = await approve(keyholder.browser, ch, { method: "passkey", passkey: forged });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      redirect_to: deniedRedirect(ch),
      error: "access_denied",
      error_description: "The passkey could not be verified. This confirmation is used up; the application has to ask again.",
    });
    expect((await approve(keyholder.browser, ch, { method: "passkey", passkey: proof })).status).toBe(404);
  });

  it("a response of the wrong shape is an error of table 3.3, never a 5xx: closed, access_denied", async () => {
    for (const response of [{ id: { toString: 1 } }, { id: 42 }, "not an object", null, []]) {
      const ch = await newChallenge(app, rp);
      const proof = await passkeyProof(ch);
      const res = await approve(keyholder.browser, ch, { method: "passkey", passkey: { challenge_id: proof.challenge_id, response } });
      expect(res.status).toBe(200);
      expect(res.data.error).toBe("access_denied");
      expect(res.data.redirect_to).toBe(deniedRedirect(ch));
      expect((await info(keyholder.browser, ch.id)).status).toBe(404);
    }
  });

  it("a passkey challenge of the confirmation page does not stand in for a sign-in's second step", async () => {
    const ch = await newChallenge(app, rp);
    const proof = await passkeyProof(ch);
    const login = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "keyholder", password: PASSWORD });
    expect(login.data.mfa_required).toBe(true);
    const res = await jarFetch(app.url).json("POST", "/api/auth/login/mfa", { mfa_token: login.data.mfa_token, passkey: proof });
    expect(res.status).toBe(400);
    expect(res.data.error_description).toBe("The passkey challenge is unknown, used or expired. Start again.");
  });

  it("passkey options need an open challenge", async () => {
    const res = await keyholder.browser.json("POST", "/api/oauth/2fa/passkey-options", { challenge_id: "no-such-challenge" });
    expect(res.status).toBe(404);
    expect(res.data).toEqual(GONE);
  });
});
