import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { mailEnv } from "../helpers/workspace-mail.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { linkIn, mailTo } from "../identity/identity-mail.fixtures.ts";
import { openPage, sessionOf, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Issue 44 items 2 and 3 in Chromium, against a real SMTP server on loopback: "Forgot password?"
// from the sign-in page to signing in again with the new password and the authenticator app; and
// an unverified address confirmed from the account page's "Resend".
describe.skipIf(browserSkipReason !== null)("mail in Chromium", () => {
  // The server's clock: moved past the time steps whose codes were used.
  const clock = manualClock();
  let browser: Browser;
  let smtp: TestSmtp;
  let app: TestApp;
  let tara: SignedUp;
  let secret = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    smtp = await startSmtp();
    app = await startApp({ host: "localhost", env: mailEnv(smtp.url), overrides: { clock } });
    await signUp(app, "admin");
    tara = await signUp(app, "tara", { name: "Tara Tester" });
    secret = (await tara.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    await tara.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, clock.now()) });
    await ensureSetup(app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.stop();
  });

  it("Forgot password? → the mail → the link → a new password → signed in with it and the authenticator app", async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto(`${app.url}/login`);
    await page.getByLabel("Username or email").fill("tara");
    await shot(page, "login-forgot-link");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    // What was typed came along.
    expect(await page.getByLabel("Username or email").inputValue()).toBe("tara");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    await shot(page, "forgot-password-sent");

    const mail = await mailTo(smtp, "tara@example.com", "reset your password");
    await page.goto(linkIn(mail, "/reset-password").href);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByText("within 15 minutes of being mailed").waitFor();
    await page.getByLabel("New password", { exact: true }).fill("tara's fresh passphrase");
    await page.getByLabel("Confirm new password").fill("tara's fresh passphrase");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Your new password is set" }).waitFor();
    await page.getByText("Your authenticator app and passkeys stay").waitFor();

    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Username or email").fill("tara");
    await page.getByLabel("Password").fill("tara's fresh passphrase");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    clock.advance(30_000);
    await page.getByLabel("Authentication code").fill(await totpCode(secret, clock.now()));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${app.url}/`);
    expect((await sessionOf(page)).body).toMatchObject({ user: { username: "tara", email_verified: true }, session: { acr: "mfa" } });
    // The old password's sessions ended, and the address heard of the reset.
    expect((await tara.browser.json("GET", "/api/auth/session")).status).toBe(401);
    await mailTo(smtp, "tara@example.com", "your password was reset");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the account page says an address is not verified; Resend mails a link, and the link's page confirms it", async () => {
    await signUp(app, "uma");
    const { context, page, errors } = await openPage(browser);
    await signInWithPassword(page, app, "uma", PASSWORD);
    await page.goto(`${app.url}/account`);
    await page.getByText("not verified", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Resend" }).click();
    await page.getByText("A new link is on its way to uma@example.com.").waitFor();
    await shot(page, "account-email-not-verified");

    const mail = await mailTo(smtp, "uma@example.com", "confirm your email address", 1);
    await page.goto(linkIn(mail, "/verify-email").href);
    await page.getByRole("heading", { name: "Confirm your email address" }).waitFor();
    await page.getByRole("button", { name: "Confirm my address" }).click();
    await page.getByRole("heading", { name: "Your email address is verified" }).waitFor();
    await page.getByRole("link", { name: "Back to your account" }).click();
    await page.getByText("verified", { exact: true }).waitFor();
    expect((await sessionOf(page)).body.user.email_verified).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe.skipIf(browserSkipReason !== null)("without mail, in Chromium", () => {
  let browser: Browser;
  let app: TestApp;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    await signUp(app, "admin");
    await signUp(app, "vic");
    await ensureSetup(app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("the forgot-password and account pages say what is missing", async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto(`${app.url}/forgot-password`);
    await page.getByText("This site does not send email yet").waitFor();
    await signInWithPassword(page, app, "vic", PASSWORD);
    await page.goto(`${app.url}/account`);
    await page.getByText("Verifying an address needs email, which an administrator has not set up on this site yet.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Resend" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
