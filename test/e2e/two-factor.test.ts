import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp } from "../helpers/identity.ts";
import { REDIRECT } from "../helpers/oauth.ts";
import { newChallenge, twoFactorWorld, verify } from "../oauth/two-factor.fixtures.ts";
import { openPage, shot } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/** Text that would be markup if the page interpreted it: it must show as typed. */
const ACTION = `Delete repository <b>acme/site</b> & "all" its <img src=x onerror=alert(1)> history`;

/*
 * The /2fa confirmation page in Chromium, on http://localhost (WebAuthn needs a domain), with the
 * server on a manual clock so each TOTP code has a time step of its own. The app's redirect_uri is
 * answered by the test (route interception), which then redeems the code as the app would.
 */
describe.skipIf(browserSkipReason !== null)("the 2FA confirmation page in Chromium", () => {
  const clock = manualClock();
  let browser: Browser;
  let app: TestApp;
  let world: Awaited<ReturnType<typeof twoFactorWorld>>;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost", overrides: { clock } });
    world = await twoFactorWorld(app, clock);
    ({ context, page, errors } = await openPage(browser));
    // The user's signed-in (password + code) session, as the browser's cookie.
    await context.addCookies([...world.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    await context.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Back at the app</h1>" }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Opens the page for a new challenge as the app's redirect would. */
  const open = async (body: Record<string, unknown> = {}) => {
    const challenge = await newChallenge(app, world.rp, { action: ACTION, ...body });
    await page.goto(`${challenge.answer.url}&state=${challenge.state}`);
    await page.getByRole("heading", { name: "Confirm an action for Test app" }).waitFor();
    return challenge;
  };
  /** Waits for the browser to land back at the app; answers the code and state it carried. */
  const landed = async () => {
    await page.waitForURL((url) => url.href.startsWith(REDIRECT));
    const params = new URL(page.url()).searchParams;
    return { code: params.get("code"), state: params.get("state"), error: params.get("error") };
  };
  const redeem = async (challenge: Awaited<ReturnType<typeof open>>, code: string | null) =>
    (await verify(app, world.rp, { code: code ?? "", code_verifier: challenge.verifier })).data;

  it("shows the app and the action verbatim, needs the box, and confirms with a TOTP code (remembering it)", async () => {
    const challenge = await open();
    expect(await page.getByTestId("action-text").textContent()).toBe(ACTION);
    expect(await page.locator(".action-text b, .action-text img").count()).toBe(0);
    const confirm = page.getByRole("button", { name: "Confirm" });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel("Yes, I want to do this").check();
    // Issue 42: phones show the number pad for a 6-digit code.
    expect(await page.getByLabel("Authentication code").getAttribute("inputmode")).toBe("numeric");
    await page.getByLabel("Authentication code").fill(await world.nextCode());
    await page.getByLabel("Don't ask again for 15 minutes on this device for Test app").check();
    await shot(page, "2fa-totp");
    await confirm.click();
    const back = await landed();
    expect(back.state).toBe(challenge.state);
    expect(await redeem(challenge, back.code)).toMatchObject({ user_id: world.user.user.id, action: ACTION, nonce: "n-123", method: "totp" });
  });

  it("inside the remembered window, confirms without a code but still with the box", async () => {
    const challenge = await open();
    const sudo = page.getByLabel(/Confirm without a code/);
    expect(await sudo.isChecked()).toBe(true);
    expect(await page.getByLabel("Authentication code").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Confirm" }).isDisabled()).toBe(true);
    await page.getByLabel("Yes, I want to do this").check();
    await page.getByRole("button", { name: "Confirm" }).click();
    const back = await landed();
    expect(await redeem(challenge, back.code)).toMatchObject({ method: "sudo", action: ACTION });
  });

  it("lists the remembered confirmation on the account page and ends it there", async () => {
    await page.goto(`${app.url}/account#remembered-confirmations`);
    const list = page.getByRole("list", { name: "Remembered confirmations" });
    await list.getByText("Test app").waitFor();
    await page.getByRole("button", { name: "End for Test app" }).click();
    await page.getByText(/None\. When you confirm an action/).waitFor();
    await open();
    expect(await page.getByLabel(/Confirm without a code/).count()).toBe(0);
    expect(await page.getByLabel("Authentication code").isVisible()).toBe(true);
  });

  it("a wrong code uses the request up: the page says so and sends the app access_denied", async () => {
    const challenge = await open();
    await page.getByLabel("Yes, I want to do this").check();
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("heading", { name: "Not confirmed" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("That code is not right.");
    await page.getByRole("link", { name: "Back to Test app" }).click();
    const back = await landed();
    expect(back).toEqual({ code: null, state: challenge.state, error: "access_denied" });
  });

  it("rejecting sends the app access_denied", async () => {
    const challenge = await open();
    await page.getByRole("button", { name: "Reject" }).click();
    expect(await landed()).toEqual({ code: null, state: challenge.state, error: "access_denied" });
  });

  it("confirms with a passkey on a virtual authenticator", async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto(`${app.url}/account#passkeys`);
    await page.getByLabel("New passkey name").fill("Laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("list", { name: "Your passkeys" }).getByText("Laptop").waitFor();

    const challenge = await open();
    await page.getByLabel(/^Passkey/).check();
    await page.getByLabel("Yes, I want to do this").check();
    await page.getByRole("button", { name: "Confirm" }).click();
    const back = await landed();
    expect(await redeem(challenge, back.code)).toMatchObject({ method: "passkey", user_id: world.user.user.id });
  });

  it("with the proof-of-work gate, solves it in a worker with a progress bar, then confirms", async () => {
    await updateSiteConfig(app.ctx, { captcha_provider: "pow", require_captcha_for_2fa: true, pow_difficulty: 12 });
    try {
      const challenge = await open();
      await page.getByText("Browser check done.").waitFor();
      expect(await page.locator("#pow-progress").getAttribute("data-done")).toBe("true");
      await page.getByLabel(/^Authenticator app/).check();
      await page.getByLabel("Yes, I want to do this").check();
      await page.getByLabel("Authentication code").fill(await world.nextCode());
      await shot(page, "2fa-pow");
      await page.getByRole("button", { name: "Confirm" }).click();
      const back = await landed();
      expect(await redeem(challenge, back.code)).toMatchObject({ method: "totp" });
    } finally {
      await updateSiteConfig(app.ctx, { captcha_provider: "none", require_captcha_for_2fa: false });
    }
  });

  it("a request that expired unanswered says so and sends the person back with access_denied", async () => {
    const challenge = await newChallenge(app, world.rp, { action: ACTION });
    clock.advance(10 * 60_000);
    await page.goto(`${challenge.answer.url}&state=${challenge.state}`);
    await page.getByRole("heading", { name: "This confirmation request has expired" }).waitFor();
    await page.getByRole("link", { name: "Back to Test app" }).click();
    expect(await landed()).toEqual({ code: null, state: challenge.state, error: "access_denied" });
  });

  it("a signed-out visitor signs in first and comes back to the request", async () => {
    const other = await browser.newContext();
    const visitor = await other.newPage();
    const challenge = await newChallenge(app, world.rp, { action: ACTION });
    await visitor.goto(`${challenge.answer.url}&state=${challenge.state}`);
    await visitor.waitForURL((url) => url.pathname === "/login");
    expect(new URL(visitor.url()).searchParams.get("return_to")).toBe(`/2fa?challenge_id=${challenge.id}&state=${challenge.state}`);
    await other.close();
  });

  it("a user with no second factor is told to add one, and can send the app a refusal", async () => {
    const plain = await signUp(app, "bob");
    const other = await browser.newContext();
    await other.addCookies([...plain.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    await other.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Back at the app</h1>" }));
    const visitor = await other.newPage();
    const challenge = await newChallenge(app, world.rp, { action: ACTION });
    await visitor.goto(`${challenge.answer.url}&state=${challenge.state}`);
    await visitor.getByRole("heading", { name: "A second factor is needed" }).waitFor();
    await visitor.getByRole("button", { name: "Cancel and return to the application" }).click();
    await visitor.waitForURL((url) => url.href.startsWith(REDIRECT));
    expect(new URL(visitor.url()).searchParams.get("error")).toBe("access_denied");
    await other.close();
  });

  it("an admin sets the sudo window and the captcha gate on the admin page", async () => {
    const other = await browser.newContext();
    await other.addCookies([...world.owner.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    const admin = await other.newPage();
    await admin.goto(`${app.url}/admin#site-settings`);
    await admin.getByLabel("Sudo mode (minutes)").fill("5");
    await admin.getByLabel("Require a CAPTCHA for two-factor confirmations").check();
    await admin.getByLabel("CAPTCHA provider").selectOption("pow");
    await admin.getByLabel("Proof-of-work difficulty (bits)").fill("14");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await admin.getByText("Site settings saved.").waitFor();
    const config = () => world.owner.browser.json("GET", "/api/oauth/admin/config");
    expect((await config()).data.config).toMatchObject({
      sudo_mode_ttl_minutes: 5,
      require_captcha_for_2fa: true,
      captcha_provider: "pow",
      pow_difficulty: 14,
      captcha_secret_set: false,
    });

    await admin.getByLabel("CAPTCHA provider").selectOption("turnstile");
    await admin.getByLabel("Site key").fill("0x4AAAAAAAtest");
    await admin.getByLabel("Secret key").fill("0x4AAAAAAAsecret");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await admin.getByText("A secret is stored. Leave empty to keep it.").waitFor();
    const saved = (await config()).data.config;
    expect(saved).toMatchObject({ captcha_provider: "turnstile", captcha_site_key: "0x4AAAAAAAtest", captcha_secret_set: true });
    expect(JSON.stringify(saved)).not.toContain("0x4AAAAAAAsecret");

    // The app's page shows its owner the confirmations it asked for, the action as text.
    await admin.goto(`${app.url}/apps/${world.rp.client_id}#two-factor-challenges`);
    const table = admin.locator("#two-factor-challenges table");
    await table.waitFor();
    expect(await table.getByText(ACTION).count()).toBeGreaterThan(0);
    expect(await table.getByText("confirmed and verified").count()).toBeGreaterThan(0);
    expect(await table.getByText("rejected or failed").count()).toBeGreaterThan(0);
    await other.close();
    await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15, require_captcha_for_2fa: false, captcha_provider: "none" });
  });

  it("raised no page errors", () => {
    expect(errors).toEqual([]);
  });
});
