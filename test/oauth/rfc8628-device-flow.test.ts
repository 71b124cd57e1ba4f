import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import fc from "fast-check";
import * as client from "openid-client";
import type { TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { DEVICE_GUESSES_PER_ADDRESS, DEVICE_GUESSES_PER_USER } from "../../src/oauth/device/device-limits.ts";
import { startDeviceAuthorization } from "../../src/oauth/device/device.service.ts";
import { displayUserCode, newUserCode, normalizeUserCode, USER_CODE_ALPHABET } from "../../src/oauth/protocol/user-code.ts";
import { AppError } from "../../src/shared/errors.ts";
import { confidentialApp, pkce, postForm, publicApp, type RegisteredApp, TOKEN, startOAuthWorld } from "./oauth.fixtures.ts";

const DEVICE_AUTHORIZATION = "/api/oauth/device_authorization";
const GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** The device grant is asked for at registration; the code flow's pair is what an app gets by default. */
const WITH_DEVICE = ["authorization_code", "refresh_token", GRANT];
const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => {
  ({ app, owner, user, rp } = await startOAuthWorld({ overrides: { clock } }, { grant_types: WITH_DEVICE }));
});
afterAll(() => app.stop());

const start = async (scope = "openid profile offline_access", extra: Record<string, string> = {}, r: RegisteredApp = rp) => {
  const res = await postForm(app, DEVICE_AUTHORIZATION, { scope, ...extra }, { basic: [r.client_id, r.client_secret] });
  if (res.status !== 200) throw new Error(`device authorization failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data as {
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  };
};
const poll = (deviceCode: string, extra: Record<string, string> = {}, r: RegisteredApp = rp) =>
  postForm(app, TOKEN, { grant_type: GRANT, device_code: deviceCode, ...extra }, { basic: [r.client_id, r.client_secret] });
const decide = (who: SignedUp, userCode: string, decision: "approve" | "deny") =>
  who.browser.json("POST", "/api/oauth/device/decision", { user_code: userCode, decision });

describe("RFC 8628 through openid-client", () => {
  it("initiates, the user approves, and the poll returns tokens with an ID token and a refresh token", async () => {
    const started = await client.initiateDeviceAuthorization(rp.config, { scope: "openid profile offline_access" });
    expect(started.verification_uri).toBe(`${app.url}/device`);
    expect(started.verification_uri_complete).toBe(`${app.url}/device?user_code=${started.user_code}`);
    expect(started).toMatchObject({ expires_in: 600, interval: 5 });
    const lookup = await user.browser.json("GET", `/api/oauth/device/lookup?user_code=${encodeURIComponent(started.user_code)}`);
    expect(lookup.data).toMatchObject({ client: { client_id: rp.client_id, name: "Test app" }, scopes: ["openid", "profile", "offline_access"] });
    expect((await decide(user, started.user_code, "approve")).data).toEqual({ ok: true });
    const tokens = await client.pollDeviceAuthorizationGrant(rp.config, started);
    expect(tokens.claims()?.sub).toBe(user.user.id);
    expect(tokens.refresh_token).toBeString();
    expect(tokens.scope).toBe("openid profile offline_access");
  }, 20_000);
});

describe("spec 1 state table 3.1: every row", () => {
  it("pending, polled in time: authorization_pending", async () => {
    const { device_code } = await start();
    const res = await poll(device_code);
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("authorization_pending");
  });

  it("pending, polled faster than the interval: slow_down, and the interval grows by 5 seconds", async () => {
    const { device_code } = await start();
    expect((await poll(device_code)).data.error).toBe("authorization_pending");
    const fast = await poll(device_code);
    expect(fast.data).toEqual({ error: "slow_down", error_description: "poll no faster than every 10 seconds" });
    // The old interval is no longer enough; the new one is.
    clock.advance(5_000);
    expect((await poll(device_code)).data.error).toBe("slow_down");
    clock.advance(15_001);
    expect((await poll(device_code)).data.error).toBe("authorization_pending");
  });

  it("approved: the next poll returns tokens, without id_token or refresh_token unless asked for", async () => {
    const { device_code, user_code } = await start("profile");
    await decide(user, user_code, "approve");
    clock.advance(30_000);
    const res = await poll(device_code);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ token_type: "Bearer", scope: "profile" });
    expect(res.data.id_token).toBeUndefined();
    expect(res.data.refresh_token).toBeUndefined();
    expect((await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${res.data.access_token}` })).data.user.id).toBe(user.user.id);
  });

  it("denied (terminal): access_denied, also on later polls", async () => {
    const { device_code, user_code } = await start();
    await decide(user, user_code, "deny");
    for (let i = 0; i < 2; i++) {
      clock.advance(30_000);
      expect((await poll(device_code)).data.error).toBe("access_denied");
    }
  });

  it("expired (terminal): expired_token after expires_in, and the code can no longer be approved", async () => {
    const { device_code, user_code } = await start();
    clock.advance(600_001);
    expect((await poll(device_code)).data.error).toBe("expired_token");
    expect((await decide(user, user_code, "approve")).status).toBe(404);
  });
});

describe("one use and binding", () => {
  it("redeems an approved code once: of 50 identical polls at once exactly one gets tokens", async () => {
    const { device_code, user_code } = await start();
    await decide(user, user_code, "approve");
    clock.advance(30_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => poll(device_code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.data.error === "invalid_grant")).toHaveLength(49);
  });

  it("answers a user code once: a second decision finds nothing", async () => {
    const { user_code } = await start();
    expect((await decide(user, user_code, "approve")).status).toBe(200);
    expect((await decide(user, user_code, "deny")).status).toBe(404);
    expect((await user.browser.json("GET", `/api/oauth/device/lookup?user_code=${user_code}`)).status).toBe(404);
  });

  it("gives another client's poll nothing", async () => {
    const other = await confidentialApp(app, owner, { grant_types: WITH_DEVICE });
    const { device_code } = await start();
    expect((await poll(device_code, {}, other)).data.error).toBe("invalid_grant");
  });

  it("checks the optional PKCE verifier", async () => {
    const { verifier, challenge } = await pkce();
    const { device_code, user_code } = await start("openid", { code_challenge: challenge, code_challenge_method: "S256" });
    await decide(user, user_code, "approve");
    clock.advance(30_000);
    expect((await poll(device_code, { code_verifier: (await pkce()).verifier })).data.error).toBe("invalid_grant");
    expect((await poll(device_code, { code_verifier: verifier })).status).toBe(200);
  });

  it("refuses a poll with no code_verifier at all, or an empty one, when the device request sent a challenge", async () => {
    const { verifier, challenge } = await pkce();
    const { device_code, user_code } = await start("openid", { code_challenge: challenge, code_challenge_method: "S256" });
    await decide(user, user_code, "approve");
    clock.advance(30_000);
    expect((await poll(device_code)).data.error).toBe("invalid_grant");
    clock.advance(30_000);
    expect((await poll(device_code, { code_verifier: "" })).data.error).toBe("invalid_grant");
    clock.advance(30_000);
    expect((await poll(device_code, { code_verifier: verifier })).status).toBe(200);
  });

  it("serves a public client that sends only its client_id", async () => {
    const tv = await publicApp(app, owner, { grant_types: [GRANT] });
    const res = await postForm(app, DEVICE_AUTHORIZATION, { client_id: tv.client_id, scope: "openid" });
    expect(res.status).toBe(200);
    await decide(user, res.data.user_code, "approve");
    clock.advance(30_000);
    const tokens = await postForm(app, TOKEN, { grant_type: GRANT, device_code: res.data.device_code, client_id: tv.client_id });
    expect(tokens.status).toBe(200);
  });
});

describe("spec 1 section 2.3 rule 10 and request checks", () => {
  it("never grants team or site scopes", async () => {
    for (const scope of ["openid team:read", "site:user:read"]) {
      const res = await postForm(app, DEVICE_AUTHORIZATION, { scope }, { basic: [rp.client_id, rp.client_secret] });
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("invalid_scope");
    }
  });

  it("needs client authentication and the grant type registered", async () => {
    expect((await postForm(app, DEVICE_AUTHORIZATION, { scope: "openid" })).status).toBe(401);
    // Not asked for at registration: an app has only the code flow's grant types by default.
    const webOnly = await confidentialApp(app, owner);
    const res = await postForm(app, DEVICE_AUTHORIZATION, { scope: "openid" }, { basic: [webOnly.client_id, webOnly.client_secret] });
    expect(res.data.error).toBe("unauthorized_client");
  });

  it("is advertised in discovery, with the grant type", async () => {
    const meta = (await (await fetch(`${app.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(meta.device_authorization_endpoint).toBe(`${app.url}${DEVICE_AUTHORIZATION}`);
    expect(meta.grant_types_supported).toContain(GRANT);
  });

  it("looks codes up for signed-in people only, and bounds their guesses", async () => {
    const { user_code } = await start();
    expect((await app.client().json("GET", `/api/oauth/device/lookup?user_code=${user_code}`)).status).toBe(401);
    const guesser = await signUp(app, "guesser");
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push((await guesser.browser.json("GET", "/api/oauth/device/lookup?user_code=BBBB-BBBB")).status);
    expect(answers.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(answers[20]).toBe(429);
  });
});

describe("RFC 8628 section 5.1: one guessing budget for looking codes up and answering them", () => {
  const WRONG = "BBBB-BBBB";
  const lookUp = (who: SignedUp, code: string, headers: Record<string, string> = {}) =>
    who.browser.json("GET", `/api/oauth/device/lookup?user_code=${encodeURIComponent(code)}`, undefined, headers);
  const answer = (who: SignedUp, code: string, headers: Record<string, string> = {}) =>
    who.browser.json("POST", "/api/oauth/device/decision", { user_code: code, decision: "approve" }, headers);

  it("bounds wrong decisions like wrong lookups: 429 too_many_attempts with Retry-After, and the real code is safe", async () => {
    clock.advance(60_000);
    const { user_code, device_code } = await start();
    const guesser = await signUp(app, "decider");
    const statuses = [];
    for (let i = 0; i < DEVICE_GUESSES_PER_USER; i++) statuses.push((await answer(guesser, WRONG)).status);
    expect(statuses.every((s) => s === 404)).toBe(true);
    // Spent: the right code is refused too, unanswered, whichever of the two endpoints is asked.
    const refused = await answer(guesser, user_code);
    expect(refused.status).toBe(429);
    expect(refused.data).toMatchObject({ error: "too_many_attempts" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await lookUp(guesser, user_code)).status).toBe(429);
    expect((await poll(device_code)).data.error).toBe("authorization_pending");
  });

  it("counts lookups and decisions together", async () => {
    clock.advance(60_000);
    const guesser = await signUp(app, "mixer");
    for (let i = 0; i < DEVICE_GUESSES_PER_USER / 2; i++) {
      expect((await lookUp(guesser, WRONG)).status).toBe(404);
      expect((await answer(guesser, WRONG)).status).toBe(404);
    }
    expect((await lookUp(guesser, WRONG)).status).toBe(429);
    expect((await answer(guesser, WRONG)).status).toBe(429);
  });

  it("bounds every account behind one address together, and no other address", async () => {
    clock.advance(60_000);
    app.ctx.config.trustProxy = true;
    try {
      const from = { "x-forwarded-for": "10.77.0.1" };
      const accounts = Math.ceil(DEVICE_GUESSES_PER_ADDRESS / DEVICE_GUESSES_PER_USER);
      for (let a = 0; a < accounts; a++) {
        const guesser = await signUp(app, `sybil${a}`);
        for (let i = 0; i < DEVICE_GUESSES_PER_USER; i++) await answer(guesser, WRONG, from);
      }
      const fresh = await signUp(app, "sybil-fresh");
      expect((await answer(fresh, WRONG, from)).status).toBe(429);
      expect((await lookUp(fresh, WRONG, from)).status).toBe(429);
      expect((await answer(fresh, WRONG, { "x-forwarded-for": "10.77.0.2" })).status).toBe(404);
    } finally {
      app.ctx.config.trustProxy = false;
    }
  });
});

describe("admin scopes need an admin's approval (as in the code flow)", () => {
  it("drops admin scopes when someone who is not an admin approves, shows only what they can grant, and keeps them for an admin", async () => {
    clock.advance(60_000);
    const adminApp = await confidentialApp(app, owner, { grant_types: WITH_DEVICE, scopes: ["openid", "profile", "admin:users:read"] });
    const scope = "openid admin:users:read";
    expect(user.user.role).toBe("user");
    const byUser = await start(scope, {}, adminApp);
    expect((await user.browser.json("GET", `/api/oauth/device/lookup?user_code=${byUser.user_code}`)).data.scopes).toEqual(["openid"]);
    expect((await decide(user, byUser.user_code, "approve")).status).toBe(200);
    clock.advance(30_000);
    const userTokens = await poll(byUser.device_code, {}, adminApp);
    expect(userTokens.status).toBe(200);
    expect(userTokens.data.scope).toBe("openid");
    const asUser = { authorization: `Bearer ${userTokens.data.access_token}` };
    expect((await app.client().json("GET", "/api/oauth/admin/users", undefined, asUser)).status).toBe(403);

    expect(owner.user.role).toBe("admin");
    const byAdmin = await start(scope, {}, adminApp);
    expect((await owner.browser.json("GET", `/api/oauth/device/lookup?user_code=${byAdmin.user_code}`)).data.scopes).toEqual(["openid", "admin:users:read"]);
    await decide(owner, byAdmin.user_code, "approve");
    clock.advance(30_000);
    expect((await poll(byAdmin.device_code, {}, adminApp)).data.scope).toBe(scope);
  });
});

describe("user codes (RFC 8628 section 6.1)", () => {
  it("takes another code when the one drawn is already stored, rather than failing", async () => {
    const client = await app.ctx.oauth.clients.find(rp.client_id);
    if (!client) throw new Error("no client");
    // A random source that draws BBBB-BBBB (index 0 eight times), then CCCC-CCCC.
    const drawing = (...codes: number[]) => {
      const draws = codes.flatMap((c) => Array<number>(8).fill(c));
      return () => newUserCode(() => draws.shift() ?? 2);
    };
    const form = () => new URLSearchParams({ scope: "openid" });
    expect((await startDeviceAuthorization(app.ctx, client, form(), drawing(0))).user_code).toBe("BBBB-BBBB");
    expect((await startDeviceAuthorization(app.ctx, client, form(), drawing(0, 1))).user_code).toBe("CCCC-CCCC");
    // Nothing but taken codes: a clean, retryable refusal, never a database error.
    let refusal: unknown;
    try {
      await startDeviceAuthorization(app.ctx, client, form(), drawing(0, 1, 0, 1, 0, 1));
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 503, error: "temporarily_unavailable" });
  });

  it("use only the unambiguous consonants, eight of them, shown in two groups", () => {
    for (let i = 0; i < 200; i++) {
      const code = newUserCode();
      expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
      expect(displayUserCode(code)).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    }
    // Letters only (nothing to mistake for a digit), and no vowels (no words).
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY0-9]/);
  });

  it("read back whatever the case, spaces and dashes, and refuse anything else", () => {
    const code = fc.string({ unit: fc.constantFrom(...USER_CODE_ALPHABET), minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(code, fc.constantFrom("", "-", " ", " - "), fc.boolean(), (c, sep, lower) => {
        const typed = `${c.slice(0, 4)}${sep}${c.slice(4)}`;
        expect(normalizeUserCode(lower ? typed.toLowerCase() : typed)).toBe(c);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (s) => {
        const n = normalizeUserCode(s);
        if (n !== null) expect(n).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
      }),
    );
  });
});
