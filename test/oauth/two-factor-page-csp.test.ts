import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
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
      await updateSiteConfig(app.ctx, { captcha_provider: provider });
      expect(await cspOf("/2fa?challenge_id=x")).toBe(SPA_CSP);
    }
    await updateSiteConfig(app.ctx, { captcha_provider: "turnstile" });
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
      await updateSiteConfig(app.ctx, { captcha_provider: provider as keyof typeof expected });
      const csp = await cspOf("/2fa");
      expect(directive(csp, "script-src")).toStartWith("script-src 'self' ");
      expect(directive(csp, "script-src")).toContain(sources.script);
      expect(directive(csp, "frame-src")).toContain(sources.frame);
      expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
      expect(directive(csp, "object-src")).toBe("object-src 'none'");
      // Nothing of another provider.
      for (const other of Object.keys(expected).filter((p) => p !== provider)) expect(csp).not.toContain(expected[other as keyof typeof expected].frame);
    }
    await updateSiteConfig(app.ctx, { captcha_provider: "none" });
  });
});

describe("browser apps (public clients) call the 2FA API from their own origin", () => {
  it("answers the preflight of challenges and verify, and not of the page's own endpoints", async () => {
    const preflight = (path: string) =>
      fetch(app.url + path, { method: "OPTIONS", headers: { origin: "https://spa.example", "access-control-request-method": "POST" } });
    for (const path of ["/api/oauth/2fa/challenges", "/api/oauth/2fa/verify"]) {
      const res = await preflight(path);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
    for (const path of ["/api/oauth/2fa/authorize", "/api/oauth/2fa/info"]) expect((await preflight(path)).status).toBe(404);
    const refused = await fetch(`${app.url}/api/oauth/2fa/challenges`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
  });
});
