import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, sessionOf, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Issue 42 items 1, 19 and 20, in Chromium: an administrator lets a locked-out person back in with a
// reset link; an invitation's email is filled in and locked; the signed-out home offers only what
// the site allows; the wrong-address page sends other machines to the right address.
describe.skipIf(browserSkipReason !== null)("accounts in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let admin: SignedUp;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    admin = await signUp(app, "alice", { name: "Alice Admin" });
    await signUp(app, "bob", { name: "Bob Builder" });
    await ensureSetup(app); // else the home page sends its visitors to the setup wizard
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  let resetUrl = "";

  it("an admin makes a reset link for someone, shown to copy once", async () => {
    const { context, page, errors } = await openPage(browser);
    await signInWithPassword(page, app, "alice", PASSWORD);
    await page.goto(`${app.url}/admin`);
    await page.getByRole("button", { name: "Reset link for bob" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset link for bob" });
    await dialog.getByText("works once, for 24 hours").waitFor();
    await dialog.getByRole("button", { name: "Make link" }).click();
    const field = dialog.getByLabel("Reset link", { exact: true });
    await field.waitFor();
    resetUrl = await field.inputValue();
    expect(resetUrl).toStartWith(`${app.url}/reset-password?token=`);
    expect(await field.getAttribute("readonly")).not.toBeNull();
    await dialog.getByRole("button", { name: "Copy reset link" }).waitFor();
    await shot(page, "admin-reset-link");
    await dialog.getByRole("button", { name: "Done" }).click();
    // None for the admin's own account: that is the account page's password change.
    expect(await page.getByRole("button", { name: "Reset link for alice" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the person opens it in their own browser, sets a new password, and signs in with it", async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto(resetUrl);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByText("within 24 hours").waitFor();
    await page.getByLabel("New password", { exact: true }).fill("bob's fresh passphrase");
    await page.getByLabel("Confirm new password").fill("bob's other passphrase");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("The two passwords differ.").waitFor();
    await page.getByLabel("Confirm new password").fill("bob's fresh passphrase");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Your new password is set" }).waitFor();
    await shot(page, "reset-password-done");
    expect((await sessionOf(page)).status).toBe(401);

    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Username or email").fill("bob");
    await page.getByLabel("Password").fill("bob's fresh passphrase");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${app.url}/`);
    expect((await sessionOf(page)).body.user.username).toBe("bob");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opened again, the spent link says so and changes nothing", async () => {
    const { context, page } = await openPage(browser);
    await page.goto(resetUrl);
    await page.getByLabel("New password", { exact: true }).fill("a third passphrase");
    await page.getByLabel("Confirm new password").fill("a third passphrase");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("This password reset link cannot be used").waitFor();
    expect((await app.client().json("POST", "/api/auth/login", { login: "bob", password: "a third passphrase" })).status).toBe(401);
    await context.close();
  });

  it("an invitation for one address fills in that email and locks it, saying why", async () => {
    const invite = (await admin.browser.json("POST", "/api/oauth/admin/invites", { email: "Carol@Example.com" })).data;
    await updateSiteConfig(app.ctx, { registration: "invite" });
    const carol = await openPage(browser);
    await carol.page.goto(invite.url);
    const email = carol.page.getByLabel("Email");
    await carol.page.getByText("Your invitation is for this address").waitFor();
    expect(await email.inputValue()).toBe("carol@example.com");
    expect(await email.getAttribute("readonly")).not.toBeNull();
    await email.press("End");
    await email.pressSequentially("x");
    expect(await email.inputValue()).toBe("carol@example.com");
    await carol.page.getByLabel("Username").fill("carol");
    await carol.page.getByLabel("Password").fill("carol's long passphrase");
    await carol.page.getByRole("button", { name: "Create account" }).click();
    await carol.page.waitForURL(`${app.url}/account`);
    expect((await sessionOf(carol.page)).body.user).toMatchObject({ username: "carol", email: "carol@example.com" });
    expect(carol.errors).toEqual([]);
    await carol.context.close();
  });

  it("the signed-out home offers “Create an account” only when anyone may make one", async () => {
    const visitor = await openPage(browser);
    await updateSiteConfig(app.ctx, { registration: "invite" });
    await visitor.page.goto(`${app.url}/`);
    await visitor.page.getByText("New accounts here are by invitation").waitFor();
    expect(await visitor.page.getByRole("link", { name: "Sign in" }).count()).toBeGreaterThan(0);
    expect(await visitor.page.getByRole("link", { name: "Create an account" }).count()).toBe(0);

    await updateSiteConfig(app.ctx, { registration: "closed" });
    await visitor.page.reload();
    await visitor.page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
    await visitor.page.getByRole("link", { name: "Sign in" }).first().waitFor();
    expect(await visitor.page.getByRole("link", { name: "Create an account" }).count()).toBe(0);

    await updateSiteConfig(app.ctx, { registration: "open" });
    await visitor.page.reload();
    await visitor.page.getByRole("link", { name: "Create an account" }).waitFor();
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });

  it("the sign-in page offers “Create one” only when anyone may make an account", async () => {
    const visitor = await openPage(browser);
    await updateSiteConfig(app.ctx, { registration: "invite" });
    await visitor.page.goto(`${app.url}/login`);
    await visitor.page.getByText("New accounts here are by invitation").waitFor();
    expect(await visitor.page.getByRole("link", { name: "Create one" }).count()).toBe(0);

    await updateSiteConfig(app.ctx, { registration: "closed" });
    const answered = visitor.page.waitForResponse((r) => r.url().includes("/api/auth/registration"));
    await visitor.page.reload();
    await answered;
    await visitor.page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await visitor.page.getByText("New accounts here are by invitation").count()).toBe(0);
    expect(await visitor.page.getByRole("link", { name: "Create one" }).count()).toBe(0);

    await updateSiteConfig(app.ctx, { registration: "open" });
    await visitor.page.reload();
    await visitor.page.getByRole("link", { name: "Create one" }).waitFor();
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });

  it("opened at 127.0.0.1, the wrong-address page suggests this machine's network address for other machines, not 127.0.0.1", async () => {
    const visitor = await openPage(browser);
    const port = new URL(app.url).port;
    await visitor.page.goto(`http://127.0.0.1:${port}/`);
    await visitor.page.getByRole("heading", { name: "Open Cairn at its own address" }).waitFor();
    const text = (await visitor.page.locator("main").textContent()) ?? "";
    expect(text).toContain(`CAIRN_ISSUER=http://<server-ip>:${port}`);
    expect(text).not.toContain("CAIRN_ISSUER=http://127.0.0.1");
    await shot(visitor.page, "wrong-address-loopback");
    await visitor.context.close();
  });
});
