import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import { freePort } from "../helpers/temp.ts";
import { sessionOf } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/*
 * Issue 45: Cairn's sign-in page, opened by forward auth with an absolute `return_to` (the
 * protected app's URL), goes back there through /api/authz/continue after signing in, at once when
 * already signed in, and after the second factor when the app asks for one (`mfa=required`). The
 * apps are names no DNS knows (Chromium maps *.home.test to loopback), answered by a stub page with
 * no proxy in front: only Cairn's pages and redirects are under test.
 */

describe.skipIf(browserSkipReason !== null)("the sign-in page for an app behind forward auth", () => {
  let browser: Browser;
  let app: TestApp;
  let issuer: string;
  let stub: ReturnType<typeof Bun.serve>;
  const port = freePort();
  const at = (host: string, path: string) => `http://${host}.home.test:${port}${path}`;

  beforeAll(async () => {
    stub = Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response("<h1>the app</h1>", { headers: { "content-type": "text/html" } }) });
    app = await startApp({ issuerHost: "auth.home.test", env: { CAIRN_COOKIE_DOMAIN: "home.test" } });
    issuer = app.ctx.config.issuer;
    const admin = await signUp(app, "admin");
    for (const rule of [
      { host: "media.home.test", allow: { everyone: true } },
      { host: "vault.home.test", allow: { everyone: true }, require_mfa: true },
    ])
      expect((await admin.bearer("POST", "/api/oauth/admin/forward-auth/rules", rule)).status).toBe(201);
    browser = await launchBrowser(["--host-resolver-rules=MAP *.home.test 127.0.0.1"]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    stub?.stop(true);
  });

  async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    return { context, page: await context.newPage() };
  }
  const loginFor = (target: string, mfa = false) => `${issuer}/login?return_to=${encodeURIComponent(target)}${mfa ? "&mfa=required" : ""}`;
  async function fillPassword(page: Page, login: string) {
    await page.getByLabel("Username or email").fill(login);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }
  async function appCookie(context: BrowserContext) {
    return (await context.cookies()).find((c) => c.name === "cairn_authz");
  }

  it("after signing in, and at once when already signed in, goes back to the app's URL with the domain cookie", async () => {
    await signUp(app, "alice");
    const target = at("media", "/shows/42?sort=name&q=a%20b");
    const { context, page } = await fresh();
    await page.goto(loginFor(target));
    await fillPassword(page, "alice");
    await page.waitForURL(target);
    expect(await page.locator("h1").textContent()).toBe("the app");
    expect((await appCookie(context))?.domain).toBe(".home.test");

    // Signed in already: the page goes on by itself.
    await context.clearCookies({ name: "cairn_authz" });
    await page.goto(loginFor(at("media", "/other")));
    await page.waitForURL(at("media", "/other"));
    expect(await appCookie(context)).toBeDefined();
    await context.close();
  });

  it("an app that asks for a second factor gets the person back after the code, not before", async () => {
    const bob: SignedUp = await signUp(app, "bob");
    const { context, page } = await fresh();
    // Signed in with a password only, then an authenticator is added (another of bob's sessions).
    await page.goto(`${issuer}/login`);
    await fillPassword(page, "bob");
    await page.waitForURL(`${issuer}/`);
    const secret: string = (await bob.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    expect((await bob.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, Date.now()) })).status).toBe(200);

    const target = at("vault", "/secrets");
    await page.goto(loginFor(target, true));
    await page.getByRole("heading", { name: "Confirm it’s you" }).waitFor();
    expect(page.url().startsWith(`${issuer}/login`)).toBe(true);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await page.getByLabel("Authentication code").fill(await totpCode(secret, Date.now(), 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(target);
    const cairn = await context.newPage();
    await cairn.goto(`${issuer}/`);
    expect((await sessionOf(cairn)).body.session.acr).toBe("mfa");

    // With that sign-in, an app still holding a password-only cookie sends here again: no new sign-in is asked.
    await context.clearCookies({ name: "cairn_authz" });
    await page.goto(loginFor(at("vault", "/again"), true));
    await page.waitForURL(at("vault", "/again"));
    await context.close();
  });
});
