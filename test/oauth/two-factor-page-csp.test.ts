import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { updateSiteConfig } from "../../src/identity/site/site-config.ts";
import { SPA_CSP } from "../../src/shared/security-headers.ts";
import { startApp, type TestApp } from "../helpers/app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.stop());

const cspOf = async (path: string) => (await fetch(app.url + path)).headers.get("content-security-policy") ?? "";
const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("the confirmation page's Content-Security-Policy follows the captcha provider", () => {
  it("is the SPA's own with no provider, with proof of work, and on every other page", async () => {
    for (const provider of ["none", "pow"] as const) {
      updateSiteConfig(app.ctx, { captcha_provider: provider });
      expect(await cspOf("/2fa?challenge_id=x")).toBe(SPA_CSP);
    }
    updateSiteConfig(app.ctx, { captcha_provider: "turnstile" });
    expect(await cspOf("/account")).toBe(SPA_CSP);
    expect(await cspOf("/consent")).toBe(SPA_CSP);
  });

  it("lets only the configured provider's widget load, frame and call on /2fa", async () => {
    const expected = {
      turnstile: { script: "https://challenges.cloudflare.com", frame: "https://challenges.cloudflare.com" },
      hcaptcha: { script: "https://*.hcaptcha.com", frame: "https://*.hcaptcha.com" },
      recaptcha: { script: "https://www.gstatic.com", frame: "https://www.google.com" },
    } as const;
    for (const [provider, sources] of Object.entries(expected)) {
      updateSiteConfig(app.ctx, { captcha_provider: provider as keyof typeof expected });
      const csp = await cspOf("/2fa");
      expect(directive(csp, "script-src")).toStartWith("script-src 'self' ");
      expect(directive(csp, "script-src")).toContain(sources.script);
      expect(directive(csp, "frame-src")).toContain(sources.frame);
      expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
      expect(directive(csp, "object-src")).toBe("object-src 'none'");
      // Nothing of another provider.
      for (const other of Object.keys(expected).filter((p) => p !== provider)) expect(csp).not.toContain(expected[other as keyof typeof expected].frame);
    }
    updateSiteConfig(app.ctx, { captcha_provider: "none" });
  });
});
