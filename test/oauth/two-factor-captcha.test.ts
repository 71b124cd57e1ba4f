import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import fc from "fast-check";
import { captchaSecret, type SiteConfig, updateSiteConfig } from "../../src/identity/site/site-config.ts";
import { checkPow, issuePow, leadingZeroBits, powDigest } from "../../src/oauth/protocol/proof-of-work.ts";
import type { TestApp } from "../helpers/app.ts";
import { startApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import type { jarFetch } from "../helpers/cookie-jar.ts";
import { signUp, totpCode } from "../helpers/identity.ts";
import { solvePow } from "../helpers/pow.ts";
import { freePort } from "../helpers/temp.ts";
import { REDIRECT } from "./oauth.fixtures.ts";
import { codeOf, confirm, INFO, newChallenge, twoFactorWorld, verify } from "./two-factor.fixtures.ts";

type Browser = ReturnType<typeof jarFetch>;
type Challenge = Awaited<ReturnType<typeof newChallenge>>;

/** Whole seconds plus 500 ms: a puzzle's expiry is kept in whole seconds, a challenge's in milliseconds. */
const clock = manualClock(Math.floor(Date.now() / 1000) * 1000 + 500);
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;

/** The stand-in for a captcha provider's siteverify endpoint: records each check, answers what `reply` says. */
const checks: { contentType: string | null; form: Record<string, string> }[] = [];
let reply: () => Response = () => Response.json({ success: true });
const standIn = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    checks.push({ contentType: request.headers.get("content-type"), form: Object.fromEntries(new URLSearchParams(await request.text())) });
    return reply();
  },
});
const SITEVERIFY = `http://127.0.0.1:${standIn.port}/siteverify`;

beforeAll(async () => {
  app = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
  world = await twoFactorWorld(app, clock);
});
afterAll(async () => {
  await app.stop();
  await standIn.stop(true);
});

const setConfig = (patch: Partial<SiteConfig> & { captcha_secret?: string }) => updateSiteConfig(app.ctx, patch);

/** A fresh TOTP code: the clock moves 75 seconds first (a step's code works once; 8 attempts per 5 minutes). */
const code = async () => {
  clock.advance(75_000);
  return totpCode(world.secret, clock.now());
};
const info = (browser: Browser, id: string) => browser.json("GET", `${INFO}?challenge_id=${encodeURIComponent(id)}`);
const approve = (ch: Challenge, extra: Record<string, unknown>, browser: Browser = world.browser) =>
  confirm(browser, { challenge_id: ch.id, state: ch.state, decision: "approve", confirmed: true, method: "totp", ...extra });
const approved = (ch: Challenge, redirectTo: string) => ({ redirect_to: `${REDIRECT}?code=${codeOf(redirectTo)}&state=${ch.state}` });
const refusal = (description: string) => ({ error: "invalid_request", error_description: description });

/** The page's proof of work for a challenge, solved as the browser would. */
async function solvedPow(id: string, browser: Browser = world.browser) {
  const page = await info(browser, id);
  if (!page.data.pow) throw new Error(`no proof of work offered: ${JSON.stringify(page.data)}`);
  const { challenge, difficulty } = page.data.pow as { challenge: string; difficulty: number };
  return { pow_challenge: challenge, pow_nonce: solvePow(challenge, difficulty) };
}

/** Six digits that are no code of the three time steps the server accepts now. */
async function wrongCode(secret: string) {
  const near = await Promise.all([-1, 0, 1].map((step) => totpCode(secret, clock.now(), step)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.includes(candidate)) return candidate;
  }
}

/** A nonce that does not solve `challenge` at `difficulty`. */
function unsolvingNonce(challenge: string, difficulty: number) {
  for (let n = 0; ; n++) if (leadingZeroBits(powDigest(challenge, String(n))) < difficulty) return String(n);
}

const MISSING = "The proof of work is missing or malformed.";
const FORGED = "The proof of work was not issued here.";
const OTHER = "The proof of work belongs to another confirmation.";
const EXPIRED = "The proof of work expired. Reload the page to get a new one.";
const UNSOLVED = "The proof of work is not solved.";
const SPENT = "This proof of work was already used. Reload the page to get a new one.";

describe("proof of work (captcha_provider pow), the site's gate on", () => {
  beforeEach(() => {
    setConfig({ captcha_provider: "pow", require_captcha_for_2fa: true, pow_difficulty: 8, captcha_site_key: "", captcha_verify_url: "" });
  });

  it("info carries the puzzle bound to the challenge, at the site's difficulty", async () => {
    const ch = await newChallenge(app, world.rp);
    const page = await info(world.browser, ch.id);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ captcha_required: true, captcha_provider: "pow", captcha_site_key: null });
    expect(page.data.pow.difficulty).toBe(8);
    const [version, binding, expires, difficulty] = (page.data.pow.challenge as string).split(".");
    expect(version).toBe("v1");
    expect(binding).toMatch(/^[0-9a-f]{32}$/);
    expect(Number(expires)).toBe(Math.floor((clock.now() + 10 * 60_000) / 1000));
    expect(difficulty).toBe("8");
    // each page load gets a puzzle of its own
    expect((await info(world.browser, ch.id)).data.pow.challenge).not.toBe(page.data.pow.challenge);
  });

  it("approving without a proof of work is 400 and the challenge stays open; no code attempt is made", async () => {
    const ch = await newChallenge(app, world.rp);
    const totp = await code();
    const res = await approve(ch, { code: totp });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal(MISSING));
    expect((await info(world.browser, ch.id)).status).toBe(200);
    // the same code still works: it was never tried
    const ok = await approve(ch, { code: totp, ...(await solvedPow(ch.id)) });
    expect(ok.data).toEqual(approved(ch, ok.data.redirect_to));
  });

  it("a wrong nonce, a malformed nonce, or a tampered puzzle is 400 and the challenge stays open", async () => {
    const ch = await newChallenge(app, world.rp);
    const { pow_challenge, pow_nonce } = await solvedPow(ch.id);
    const cases: [Record<string, string>, string][] = [
      [{ pow_challenge, pow_nonce: unsolvingNonce(pow_challenge, 8) }, UNSOLVED],
      [{ pow_challenge, pow_nonce: "12a" }, MISSING],
      [{ pow_challenge }, MISSING],
      // the difficulty lowered to 1: the MAC no longer matches
      [{ pow_challenge: pow_challenge.replace(/\.8\./, ".1."), pow_nonce }, FORGED],
      // the expiry moved a day on
      [{ pow_challenge: pow_challenge.replace(/\.(\d+)\.8\./, (_, e) => `.${Number(e) + 86400}.8.`), pow_nonce }, FORGED],
      [{ pow_challenge: "v1.garbage", pow_nonce }, MISSING],
    ];
    for (const [answer, description] of cases) {
      const res = await approve(ch, { code: "123456", ...answer });
      expect(res.status).toBe(400);
      expect(res.data).toEqual(refusal(description));
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("a valid solution passes: code, state, and the verified result", async () => {
    const ch = await newChallenge(app, world.rp);
    const res = await approve(ch, { code: await code(), ...(await solvedPow(ch.id)) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual(approved(ch, res.data.redirect_to));
    const result = await verify(app, world.rp, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toMatchObject({ user_id: world.user.user.id, method: "totp" });
  });

  it("a puzzle is bound to its challenge: one solved for challenge A is refused on challenge B", async () => {
    const a = await newChallenge(app, world.rp);
    const b = await newChallenge(app, world.rp);
    const powA = await solvedPow(a.id);
    const res = await approve(b, { code: "123456", ...powA });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal(OTHER));
    // A's own approval still takes it
    const ok = await approve(a, { code: await code(), ...powA });
    expect(ok.data).toEqual(approved(a, ok.data.redirect_to));
    // and once used, it is refused on B again
    expect((await approve(b, { code: "123456", ...powA })).data).toEqual(refusal(OTHER));
  });

  it("an expired puzzle is refused while its challenge is still open; a fresh one passes", async () => {
    const ch = await newChallenge(app, world.rp);
    const created = clock.now();
    expect(created % 1000).toBe(500);
    const stale = await solvedPow(ch.id);
    // the puzzle's expiry is whole seconds: 500 ms before the challenge's own
    const powExpiry = Number(stale.pow_challenge.split(".")[2]) * 1000;
    expect(powExpiry).toBe(created + 10 * 60_000 - 500);
    clock.set(powExpiry);
    expect((await info(world.browser, ch.id)).status).toBe(200);
    const totp = await totpCode(world.secret, clock.now());
    const res = await approve(ch, { code: totp, ...stale });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal(EXPIRED));
    const ok = await approve(ch, { code: totp, ...(await solvedPow(ch.id)) });
    expect(ok.data).toEqual(approved(ch, ok.data.redirect_to));
  });

  it("a proof of work counts once: after an attempt past the TOTP limit gave its challenge back, the same stamp is refused", async () => {
    setConfig({ require_captcha_for_2fa: false });
    const w = await twoFactorWorld(app, clock, "stamped");
    clock.advance(5 * 60_000);
    // eight attempts on challenges without the gate use up the window
    for (let i = 0; i < 8; i++) {
      const burner = await newChallenge(app, w.rp);
      expect((await approve(burner, { code: await wrongCode(w.secret) }, w.browser)).data.error).toBe("access_denied");
    }
    const ch = await newChallenge(app, w.rp, { require_captcha: true });
    const stamp = await solvedPow(ch.id, w.browser);
    const limited = await approve(ch, { code: await totpCode(w.secret, clock.now()), ...stamp }, w.browser);
    expect(limited.status).toBe(429);
    expect(limited.data.error).toBe("too_many_attempts");
    clock.advance(5 * 60_000);
    const totp = await totpCode(w.secret, clock.now());
    const reused = await approve(ch, { code: totp, ...stamp }, w.browser);
    expect(reused.status).toBe(400);
    expect(reused.data).toEqual(refusal(SPENT));
    const ok = await approve(ch, { code: totp, ...(await solvedPow(ch.id, w.browser)) }, w.browser);
    expect(ok.data).toEqual(approved(ch, ok.data.redirect_to));
  });

  it("the site's gate cannot be turned off by a challenge: require_captcha false still needs the proof of work", async () => {
    const ch = await newChallenge(app, world.rp, { require_captcha: false });
    expect((await info(world.browser, ch.id)).data.captcha_required).toBe(true);
    expect((await approve(ch, { code: "123456" })).data).toEqual(refusal(MISSING));
  });
});

describe("the captcha gate switched on per challenge, and provider none", () => {
  it("require_captcha true turns the gate on for that challenge when the site's gate is off", async () => {
    setConfig({ captcha_provider: "pow", require_captcha_for_2fa: false, pow_difficulty: 8 });
    const plain = await newChallenge(app, world.rp);
    const plainPage = await info(world.browser, plain.id);
    expect(plainPage.data).toMatchObject({ captcha_required: false, captcha_provider: "pow" });
    expect(plainPage.data.pow).toBeUndefined();
    const res = await approve(plain, { code: await code() });
    expect(res.data).toEqual(approved(plain, res.data.redirect_to));

    const gated = await newChallenge(app, world.rp, { require_captcha: true });
    const page = await info(world.browser, gated.id);
    expect(page.data).toMatchObject({ captcha_required: true, captcha_provider: "pow", pow: { difficulty: 8 } });
    const totp = await code();
    expect((await approve(gated, { code: totp })).data).toEqual(refusal(MISSING));
    const ok = await approve(gated, { code: totp, ...(await solvedPow(gated.id)) });
    expect(ok.data).toEqual(approved(gated, ok.data.redirect_to));
  });

  it("provider none disables the effect, even with require_captcha true and the site's gate on", async () => {
    setConfig({ captcha_provider: "none", require_captcha_for_2fa: true });
    const ch = await newChallenge(app, world.rp, { require_captcha: true });
    const page = await info(world.browser, ch.id);
    expect(page.data).toMatchObject({ captcha_required: false, captcha_provider: "none", captcha_site_key: null });
    expect(page.data.pow).toBeUndefined();
    const res = await approve(ch, { code: await code() });
    expect(res.data).toEqual(approved(ch, res.data.redirect_to));
  });
});

describe("a third-party captcha (turnstile), checked against a loopback stand-in", () => {
  beforeEach(() => {
    checks.length = 0;
    reply = () => Response.json({ success: true });
    setConfig({
      captcha_provider: "turnstile",
      require_captcha_for_2fa: true,
      captcha_site_key: "0x4AAAAAAAsite",
      captcha_secret: "stand-in-secret",
      captcha_verify_url: SITEVERIFY,
    });
  });

  it("info names the provider and its site key, with no proof of work", async () => {
    const ch = await newChallenge(app, world.rp);
    const page = await info(world.browser, ch.id);
    expect(page.data).toMatchObject({ captcha_required: true, captcha_provider: "turnstile", captcha_site_key: "0x4AAAAAAAsite" });
    expect(page.data.pow).toBeUndefined();
  });

  it("success: the provider is asked with the secret, the token and the user's address, once", async () => {
    const ch = await newChallenge(app, world.rp);
    const res = await approve(ch, { code: await code(), captcha_token: "token-from-widget" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual(approved(ch, res.data.redirect_to));
    expect(checks).toEqual([
      { contentType: "application/x-www-form-urlencoded", form: { secret: "stand-in-secret", response: "token-from-widget", remoteip: "127.0.0.1" } },
    ]);
  });

  it("the provider says no ({success:false}): 400 and the challenge stays open; the same code then passes", async () => {
    reply = () => Response.json({ success: false, "error-codes": ["invalid-input-response"] });
    const ch = await newChallenge(app, world.rp);
    const totp = await code();
    const res = await approve(ch, { code: totp, captcha_token: "bad-token" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal("The captcha was not accepted. Try it again."));
    expect((await info(world.browser, ch.id)).status).toBe(200);
    reply = () => Response.json({ success: true });
    const ok = await approve(ch, { code: totp, captcha_token: "good-token" });
    expect(ok.data).toEqual(approved(ch, ok.data.redirect_to));
    expect(checks.map((c) => c.form.response)).toEqual(["bad-token", "good-token"]);
  });

  it("a success that is not exactly true, or a non-200 answer, is a refusal", async () => {
    const ch = await newChallenge(app, world.rp);
    for (const answer of [() => Response.json({ success: "true" }), () => Response.json({}), () => Response.json({ success: true }, { status: 500 })]) {
      reply = answer;
      const res = await approve(ch, { code: "123456", captcha_token: "t" });
      expect(res.status).toBe(400);
      expect(res.data).toEqual(refusal("The captcha was not accepted. Try it again."));
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("a missing token is 400 and the provider is not asked", async () => {
    const ch = await newChallenge(app, world.rp);
    const res = await approve(ch, { code: "123456" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal("Complete the captcha first."));
    expect(checks).toEqual([]);
  });

  it("the provider unreachable or answering garbage: 400 with a generic message, never a 5xx; the challenge stays open", async () => {
    const ch = await newChallenge(app, world.rp);
    reply = () => new Response("<html>oops</html>", { headers: { "content-type": "text/html" } });
    const garbage = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(garbage.status).toBe(400);
    expect(garbage.data).toEqual(refusal("The captcha could not be checked just now. Try again."));
    setConfig({ captcha_verify_url: `http://127.0.0.1:${freePort()}/siteverify` });
    const down = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(down.status).toBe(400);
    expect(down.data).toEqual(refusal("The captcha could not be checked just now. Try again."));
    // the outbound guard still refuses what it refuses: a private address over http
    setConfig({ captcha_verify_url: "http://10.0.0.1/siteverify" });
    const guarded = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(guarded.status).toBe(400);
    expect(guarded.data).toEqual(refusal("The captcha could not be checked just now. Try again."));
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("no secret configured: 400 saying so, and the provider is not asked", async () => {
    setConfig({ captcha_secret: "" });
    const ch = await newChallenge(app, world.rp);
    const res = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal("The captcha of this site is not set up (no secret key). Ask an administrator."));
    expect(checks).toEqual([]);
  });

  it("hcaptcha is checked the same way", async () => {
    setConfig({ captcha_provider: "hcaptcha" });
    const ch = await newChallenge(app, world.rp);
    expect((await info(world.browser, ch.id)).data.captcha_provider).toBe("hcaptcha");
    const res = await approve(ch, { code: await code(), captcha_token: "h-token" });
    expect(res.data).toEqual(approved(ch, res.data.redirect_to));
    expect(checks.map((c) => c.form)).toEqual([{ secret: "stand-in-secret", response: "h-token", remoteip: "127.0.0.1" }]);
  });
});

describe("PATCH /api/oauth/admin/config: the captcha settings", () => {
  const CONFIG = "/api/oauth/admin/config";
  let admin: Browser;
  beforeAll(() => {
    // the world's app owner signed up first: the instance's admin
    admin = world.owner.browser;
  });
  beforeEach(() => {
    setConfig({
      captcha_provider: "none",
      require_captcha_for_2fa: false,
      captcha_site_key: "",
      captcha_secret: "",
      captcha_verify_url: "",
      pow_difficulty: 18,
    });
  });

  it("sets provider, site key, secret, verify URL and difficulty; the secret is never answered, only that it is set", async () => {
    const res = await admin.json("PATCH", CONFIG, {
      captcha_provider: "turnstile",
      require_captcha_for_2fa: true,
      captcha_site_key: "0x4AAAAAAAkey",
      captcha_secret: "top-secret-value",
      captcha_verify_url: " https://challenges.example.com/siteverify ",
      pow_difficulty: 12,
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      config: {
        registration: "open",
        sudo_mode_ttl_minutes: 15,
        require_captcha_for_2fa: true,
        captcha_provider: "turnstile",
        captcha_site_key: "0x4AAAAAAAkey",
        captcha_verify_url: "https://challenges.example.com/siteverify",
        pow_difficulty: 12,
        admin_requires_mfa: true,
        captcha_secret_set: true,
      },
    });
    const read = await admin.json("GET", CONFIG);
    expect(read.data).toEqual(res.data);
    expect(captchaSecret(app.ctx)).toBe("top-secret-value");
    const audit = await admin.json("GET", "/api/oauth/admin/audit");
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.data)).toContain("admin.config_updated");
    for (const answer of [res, read, audit]) expect(JSON.stringify(answer.data)).not.toContain("top-secret-value");

    const cleared = await admin.json("PATCH", CONFIG, { captcha_secret: "" });
    expect(cleared.data.config.captcha_secret_set).toBe(false);
    expect(captchaSecret(app.ctx)).toBeNull();
  });

  it("a patch changes only the fields it names: the provider and the secret stay", async () => {
    await admin.json("PATCH", CONFIG, { captcha_provider: "pow", require_captcha_for_2fa: true, captcha_secret: "kept" });
    const res = await admin.json("PATCH", CONFIG, { sudo_mode_ttl_minutes: 5 });
    expect(res.status).toBe(200);
    expect(res.data.config).toMatchObject({ sudo_mode_ttl_minutes: 5, captcha_provider: "pow", require_captcha_for_2fa: true, captcha_secret_set: true });
    expect(captchaSecret(app.ctx)).toBe("kept");
    await admin.json("PATCH", CONFIG, { sudo_mode_ttl_minutes: 15 });
  });

  it.each([
    { captcha_provider: "friendlycaptcha" },
    { captcha_provider: "" },
    { captcha_provider: "POW" },
    { captcha_verify_url: "http://challenges.example.com/siteverify" },
    { captcha_verify_url: "not a url" },
    { captcha_verify_url: "ftp://challenges.example.com/siteverify" },
    { pow_difficulty: 7 },
    { pow_difficulty: 27 },
    { pow_difficulty: 12.5 },
    { pow_difficulty: "twelve" },
    { captcha_site_key: "<script>" },
    { captcha_secret: "x".repeat(501) },
  ])("refuses %p with 400 and changes nothing", async (patch) => {
    const before = (await admin.json("GET", CONFIG)).data;
    const res = await admin.json("PATCH", CONFIG, { require_captcha_for_2fa: true, ...patch });
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
    expect((await admin.json("GET", CONFIG)).data).toEqual(before);
  });

  it("the verify URL must be https: the message says so", async () => {
    const res = await admin.json("PATCH", CONFIG, { captcha_verify_url: "http://challenges.example.com/siteverify" });
    expect(res.data).toEqual(refusal("captcha_verify_url must be an https URL, or empty for the provider's own."));
  });

  it("accepts the difficulty's bounds 8 and 26, and an empty verify URL (the provider's own)", async () => {
    expect((await admin.json("PATCH", CONFIG, { pow_difficulty: 8 })).data.config.pow_difficulty).toBe(8);
    expect((await admin.json("PATCH", CONFIG, { pow_difficulty: 26 })).data.config.pow_difficulty).toBe(26);
    await admin.json("PATCH", CONFIG, { captcha_verify_url: "https://x.example.com/v" });
    expect((await admin.json("PATCH", CONFIG, { captcha_verify_url: "" })).data.config.captcha_verify_url).toBe("");
  });

  it("is for admins only", async () => {
    const plain = await signUp(app, "not-admin");
    const res = await plain.browser.json("PATCH", CONFIG, { captcha_provider: "pow" });
    expect(res.status).toBe(403);
    expect(res.data.error).toBe("forbidden");
    expect((await plain.browser.json("GET", CONFIG)).status).toBe(403);
  });
});

describe("proof-of-work checking (src/oauth/protocol/proof-of-work.ts)", () => {
  const KEY = Buffer.alloc(32, 7);
  const NOW = 1_900_000_000_500;
  const puzzle = (binding: string, difficulty: number, random = "abcdefghijkl", now = NOW, ttlMs = 600_000) =>
    issuePow(KEY, { binding, now, ttlMs, difficulty, random });

  it("verdict expired at the puzzle's expiry (whole seconds), ok just before", () => {
    const challenge = puzzle("bind", 4);
    const nonce = solvePow(challenge, 4);
    const expiry = Math.floor((NOW + 600_000) / 1000) * 1000;
    expect(checkPow(KEY, challenge, nonce, "bind", expiry - 1)).toBe("ok");
    expect(checkPow(KEY, challenge, nonce, "bind", expiry)).toBe("expired");
  });

  it("verdicts for another binding, another key, and malformed input", () => {
    const challenge = puzzle("bind", 4);
    const nonce = solvePow(challenge, 4);
    expect(checkPow(KEY, challenge, nonce, "other", NOW)).toBe("other_challenge");
    expect(checkPow(Buffer.alloc(32, 8), challenge, nonce, "bind", NOW)).toBe("forged");
    expect(checkPow(KEY, challenge, "", "bind", NOW)).toBe("malformed");
    expect(checkPow(KEY, challenge, "1".repeat(17), "bind", NOW)).toBe("malformed");
    expect(checkPow(KEY, `${challenge}x`, nonce, "bind", NOW)).toBe("malformed");
  });

  it("leadingZeroBits counts the zero bits before the first one bit", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 8 }), (bytes) => {
        const bits = [...bytes].map((b) => b.toString(2).padStart(8, "0")).join("");
        const first = bits.indexOf("1");
        expect(leadingZeroBits(bytes)).toBe(first === -1 ? bits.length : first);
      }),
    );
  });

  const binding = fc.stringMatching(/^[0-9a-f]{32}$/);
  const random = fc.stringMatching(/^[A-Za-z0-9_-]{16}$/);
  const difficulty = fc.integer({ min: 1, max: 10 });

  it("property: what solvePow finds, checkPow accepts", () => {
    fc.assert(
      fc.property(binding, random, difficulty, (b, r, d) => {
        const challenge = puzzle(b, d, r);
        expect(checkPow(KEY, challenge, solvePow(challenge, d), b, NOW)).toBe("ok");
      }),
      { numRuns: 60 },
    );
  });

  it("property: any change to a puzzle's text is refused", () => {
    fc.assert(
      fc.property(binding, random, difficulty, fc.nat(), fc.constantFrom(..."0123456789abcdefxyzXYZ_-."), (b, r, d, at, ch) => {
        const challenge = puzzle(b, d, r);
        const i = at % challenge.length;
        fc.pre(challenge[i] !== ch);
        const tampered = challenge.slice(0, i) + ch + challenge.slice(i + 1);
        const nonce = solvePow(tampered, d);
        expect(checkPow(KEY, tampered, nonce, b, NOW)).not.toBe("ok");
      }),
      { numRuns: 150 },
    );
  });

  it("property: a nonce is accepted exactly when its digest has the puzzle's zero bits", () => {
    fc.assert(
      fc.property(binding, random, difficulty, fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n }), (b, r, d, n) => {
        const challenge = puzzle(b, d, r);
        const nonce = n.toString();
        const solves = leadingZeroBits(powDigest(challenge, nonce)) >= d;
        expect(checkPow(KEY, challenge, nonce, b, NOW)).toBe(solves ? "ok" : "unsolved");
      }),
      { numRuns: 300 },
    );
  });

  it("property: a nonce that is not a decimal counter is malformed", () => {
    fc.assert(
      fc.property(
        binding,
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^\d{1,16}$/.test(s)),
        (b, nonce) => {
          expect(checkPow(KEY, puzzle(b, 4), nonce, b, NOW)).toBe("malformed");
        },
      ),
    );
  });
});
