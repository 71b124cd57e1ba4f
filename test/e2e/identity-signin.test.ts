import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { generate } from "otplib";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD } from "../helpers/identity.ts";
import { openPage, sessionOf, shot, signOut } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/*
 * One instance on http://localhost (WebAuthn needs a domain as its relying party ID), walked
 * through in order: the wizard's admin, then TOTP, sessions and tokens, then passkeys, all on
 * that admin's account.
 */
describe.skipIf(browserSkipReason !== null)("sign-in and account security in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let backupCodes: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    ({ page, errors } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("creates the admin in the setup wizard, finishes setup and lands signed in", async () => {
    await page.goto(app.url);
    await page.waitForURL(`${app.url}/setup`);
    await page.getByLabel("Username").fill("ada");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Display name (optional)").fill("Ada Lovelace");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("button", { name: "Next" }).click(); // identity provider: this instance
    await page.getByRole("button", { name: "Next" }).click(); // access: everyone
    await page.getByRole("button", { name: "Finish setup" }).click();
    await page.getByRole("heading", { name: "Cairn is ready" }).waitFor();
    await page.getByRole("link", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Welcome, Ada Lovelace" }).waitFor();
    await shot(page, "home");

    const { status, body } = await sessionOf(page);
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ username: "ada", role: "admin" });
    expect(body.session.amr).toEqual(["pwd"]);
    expect((await app.json("GET", "/api/init/status")).data).toEqual({ configured: true });
    expect(await page.getByRole("navigation", { name: "Account" }).textContent()).toContain("Admin");
  });

  it("enrols TOTP from the QR page, keeps the backup codes, then signs in with password and a code", async () => {
    await page.getByRole("link", { name: "Account", exact: true }).click();
    await page.getByRole("heading", { name: "Your account", exact: true }).waitFor();
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    expect(await page.getByRole("img", { name: /QR code/ }).getAttribute("src")).toStartWith("data:image/svg+xml");
    const secret = await page.getByRole("textbox", { name: "Secret key" }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await shot(page, "account-totp");

    // A wrong code is refused next to the field.
    await page.getByLabel("Code from the app").fill("000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("That code is not right.").waitFor();

    await page.getByLabel("Code from the app").fill(await generate({ secret }));
    await page.getByRole("button", { name: "Turn on" }).click();
    const list = page.getByRole("list", { name: "Backup codes" });
    await list.waitFor();
    backupCodes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
    expect(backupCodes).toHaveLength(10);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await page.getByText("10 backup codes left.").waitFor();
    await shot(page, "account");

    // Signed out, a visit to /account goes to sign-in and comes back afterwards.
    await signOut(page, app);
    await page.goto(`${app.url}/account`);
    await page.waitForURL(`${app.url}/login?return_to=%2Faccount`);
    await page.getByLabel("Username or email").fill("ada@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await shot(page, "login-mfa");
    // The code of the next time step: the enrolment code's step may not be used twice.
    await page.getByLabel("Authentication code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${app.url}/account`);
    const { body } = await sessionOf(page);
    expect(body.session.acr).toBe("mfa");
    expect(body.session.amr).toEqual(["pwd", "otp", "mfa"]);
  });

  it("accepts a saved backup code as the second step, once", async () => {
    await signOut(page, app);
    await page.goto(`${app.url}/login`);
    await page.getByLabel("Username or email").fill("ada");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("radio", { name: /^Backup code/ }).check();
    await page.getByRole("textbox", { name: "Backup code" }).fill(backupCodes[0] as string);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${app.url}/`);
    expect((await sessionOf(page)).body.session.acr).toBe("mfa");
    await page.goto(`${app.url}/account`);
    await page.getByText("9 backup codes left.").waitFor();
  });

  it("lists this session, and a second one that can be signed out from here", async () => {
    const other = await app.client().json("POST", "/api/auth/login", { login: "ada", password: PASSWORD });
    expect(other.data).toMatchObject({ mfa_required: true }); // a second device still needs its factor...
    const second = app.client();
    const step = await second.json("POST", "/api/auth/login", { login: "ada", password: PASSWORD });
    const done = await second.json("POST", "/api/auth/login/mfa", { mfa_token: step.data.mfa_token, backup_code: backupCodes[1] });
    expect(done.status).toBe(200);

    await page.reload(); // a fresh load of /account lists the new session
    await page.goto(`${app.url}/account#sessions`);
    const sessions = page.getByRole("list", { name: "Signed-in sessions" });
    await sessions.getByText("This device").waitFor();
    await page.getByRole("button", { name: "Sign out other sessions" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Sign out others" }).click();
    await page.getByText("You are signed in only here.").waitFor();
    expect((await second.json("GET", "/api/auth/session")).status).toBe(401);
  });

  it("makes new backup codes after confirming with the password", async () => {
    await page.getByRole("button", { name: "New backup codes" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Authenticator code or password").fill("not my password");
    await dialog.getByRole("button", { name: "Make new codes" }).click();
    await dialog.getByText("Confirm with a current code or your password.").waitFor();
    await dialog.getByLabel("Authenticator code or password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Make new codes" }).click();
    const list = page.getByRole("list", { name: "Backup codes" });
    await list.waitFor();
    const fresh = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(backupCodes[2]);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await page.getByText("10 backup codes left.").waitFor();
  });

  it("creates a personal access token shown once, which works until it is revoked", async () => {
    await page.getByLabel("Token name").fill("backup script");
    await page.getByLabel("teams:read").check();
    await page.getByLabel("Expires after").selectOption({ label: "30 days" });
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = await page.getByRole("textbox", { name: "New token" }).inputValue();
    expect(secret).toStartWith("cairn_pat_");
    const tokens = page.getByRole("list", { name: "Your tokens" });
    await tokens.getByText("backup script").waitFor();
    await tokens.getByText("teams:read").waitFor();

    const me = await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${secret}` });
    expect(me.status).toBe(200);
    expect(me.data.user.username).toBe("ada");
    await shot(page, "account-tokens");

    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("textbox", { name: "New token" }).count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Revoke backup script" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("No tokens yet.").waitFor();
    expect((await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${secret}` })).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it("registers a passkey on a virtual authenticator and signs in with it alone, no password", async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await page.getByLabel("New passkey name").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    const added = page.getByRole("list", { name: "Your passkeys" }).getByText("Test laptop");
    const refused = page.locator("#passkeys .field-error");
    await added.or(refused).first().waitFor();
    // On refusal, fail with the page's own message (it names what the server did not accept).
    if ((await refused.count()) > 0) throw new Error(`passkey registration refused: ${await refused.first().textContent()}`);
    await shot(page, "account-passkeys");

    // Rename it through the dialog.
    await page.getByRole("button", { name: "Rename Test laptop" }).click();
    await page.getByRole("dialog").getByLabel("Passkey name").fill("Work laptop");
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await page.getByRole("list", { name: "Your passkeys" }).getByText("Work laptop").waitFor();

    await signOut(page, app);
    await page.goto(`${app.url}/login`);
    await shot(page, "login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole("heading", { name: "Welcome, Ada Lovelace" }).waitFor();
    const { body } = await sessionOf(page);
    expect(body.user.username).toBe("ada");
    expect(body.session.amr).toEqual(["webauthn", "mfa"]);
  });

  it("offers the passkey as a second step after the password", async () => {
    await signOut(page, app);
    await page.goto(`${app.url}/login`);
    await page.getByLabel("Username or email").fill("ada");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("radio", { name: /^Passkey/ }).check({ timeout: 5000 });
    await page.getByRole("button", { name: "Use passkey" }).click();
    await page.waitForURL(`${app.url}/`);
    expect((await sessionOf(page)).body.session.amr).toEqual(["pwd", "webauthn", "mfa"]);
    expect(errors).toEqual([]);
  });
});
