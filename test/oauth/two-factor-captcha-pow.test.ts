import { beforeAll, beforeEach, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { totpCode } from "../helpers/identity.ts";
import { approved, captchaWorld, EXPIRED, FORGED, MISSING, OTHER, refusal, SPENT, UNSOLVED, unsolvingNonce } from "./two-factor-captcha.fixtures.ts";
import { codeOf, info, newChallenge, twoFactorWorld, verify } from "./two-factor.fixtures.ts";

/* The captcha gate on 2FA confirmations with the built-in proof of work: the site's gate, a challenge's own, and provider none. */
const { cast, clock, setConfig, code, approve, solvedPow, wrongCode } = captchaWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
beforeAll(() => ({ app, world } = cast));

describe("proof of work (captcha_provider pow), the site's gate on", () => {
  beforeEach(async () => {
    await setConfig({ captcha_provider: "pow", require_captcha_for_2fa: true, pow_difficulty: 8, captcha_site_key: "", captcha_verify_url: "" });
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
    await setConfig({ require_captcha_for_2fa: false });
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
    await setConfig({ captcha_provider: "pow", require_captcha_for_2fa: false, pow_difficulty: 8 });
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
    await setConfig({ captcha_provider: "none", require_captcha_for_2fa: true });
    const ch = await newChallenge(app, world.rp, { require_captcha: true });
    const page = await info(world.browser, ch.id);
    expect(page.data).toMatchObject({ captcha_required: false, captcha_provider: "none", captcha_site_key: null });
    expect(page.data.pow).toBeUndefined();
    const res = await approve(ch, { code: await code() });
    expect(res.data).toEqual(approved(ch, res.data.redirect_to));
  });
});
