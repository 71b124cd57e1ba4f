import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { freePort } from "../helpers/temp.ts";
import { approved, captchaWorld, refusal } from "./two-factor-captcha.fixtures.ts";
import { info, newChallenge, type twoFactorWorld } from "./two-factor.fixtures.ts";

/* The captcha gate on 2FA confirmations with a third-party provider (Turnstile, hCaptcha), checked against a loopback stand-in of its siteverify endpoint. */
const { cast, setConfig, code, approve } = captchaWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
beforeAll(() => ({ app, world } = cast));

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
afterAll(() => standIn.stop(true));

describe("a third-party captcha (turnstile), checked against a loopback stand-in", () => {
  beforeEach(async () => {
    checks.length = 0;
    reply = () => Response.json({ success: true });
    await setConfig({
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
    await setConfig({ captcha_verify_url: `http://127.0.0.1:${freePort()}/siteverify` });
    const down = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(down.status).toBe(400);
    expect(down.data).toEqual(refusal("The captcha could not be checked just now. Try again."));
    // the outbound guard still refuses what it refuses: a private address over http
    await setConfig({ captcha_verify_url: "http://10.0.0.1/siteverify" });
    const guarded = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(guarded.status).toBe(400);
    expect(guarded.data).toEqual(refusal("The captcha could not be checked just now. Try again."));
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("no secret configured: 400 saying so, and the provider is not asked", async () => {
    await setConfig({ captcha_secret: "" });
    const ch = await newChallenge(app, world.rp);
    const res = await approve(ch, { code: "123456", captcha_token: "t" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual(refusal("The captcha of this site is not set up (no secret key). Ask an administrator."));
    expect(checks).toEqual([]);
  });

  it("hcaptcha is checked the same way", async () => {
    await setConfig({ captcha_provider: "hcaptcha" });
    const ch = await newChallenge(app, world.rp);
    expect((await info(world.browser, ch.id)).data.captcha_provider).toBe("hcaptcha");
    const res = await approve(ch, { code: await code(), captcha_token: "h-token" });
    expect(res.data).toEqual(approved(ch, res.data.redirect_to));
    expect(checks.map((c) => c.form)).toEqual([{ secret: "stand-in-secret", response: "h-token", remoteip: "127.0.0.1" }]);
  });
});
