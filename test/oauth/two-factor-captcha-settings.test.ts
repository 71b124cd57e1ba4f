import { beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { captchaSecret } from "../../src/identity/site-config/site-config.ts";
import type { TestApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";
import { captchaWorld, refusal } from "./two-factor-captcha.fixtures.ts";
import type { Browser, twoFactorWorld } from "./two-factor.fixtures.ts";

/* The captcha settings of PATCH /api/oauth/admin/config: what an admin may set, what is refused, and that the secret is never answered. */
const { cast, setConfig } = captchaWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
beforeAll(() => ({ app, world } = cast));

describe("PATCH /api/oauth/admin/config: the captcha settings", () => {
  const CONFIG = "/api/oauth/admin/config";
  let admin: Browser;
  beforeAll(() => {
    // the world's app owner signed up first: the instance's admin
    admin = world.owner.browser;
  });
  beforeEach(async () => {
    await setConfig({
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
    expect(await captchaSecret(app.ctx)).toBe("top-secret-value");
    const audit = await admin.json("GET", "/api/oauth/admin/audit");
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.data)).toContain("admin.config_updated");
    for (const answer of [res, read, audit]) expect(JSON.stringify(answer.data)).not.toContain("top-secret-value");

    const cleared = await admin.json("PATCH", CONFIG, { captcha_secret: "" });
    expect(cleared.data.config.captcha_secret_set).toBe(false);
    expect(await captchaSecret(app.ctx)).toBeNull();
  });

  it("a patch changes only the fields it names: the provider and the secret stay", async () => {
    await admin.json("PATCH", CONFIG, { captcha_provider: "pow", require_captcha_for_2fa: true, captcha_secret: "kept" });
    const res = await admin.json("PATCH", CONFIG, { sudo_mode_ttl_minutes: 5 });
    expect(res.status).toBe(200);
    expect(res.data.config).toMatchObject({ sudo_mode_ttl_minutes: 5, captcha_provider: "pow", require_captcha_for_2fa: true, captcha_secret_set: true });
    expect(await captchaSecret(app.ctx)).toBe("kept");
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
