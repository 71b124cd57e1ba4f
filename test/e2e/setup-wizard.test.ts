import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

describe.skipIf(browserSkipReason !== null)("setup wizard in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("sends the first visitor to the wizard, creates the admin account and configures another Cairn as the identity provider", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(app.url);
    await page.waitForURL(`${app.url}/setup`);
    await page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
    // Step one creates the administrator; its fields are checked before the round trip.
    await page.getByRole("button", { name: "Create account" }).click();
    expect(await page.getByRole("alert").first().textContent()).toBe("Choose a username.");
    await page.getByLabel("Username").fill("root");
    await page.getByLabel("Email").fill("root@example.com");
    await page.getByLabel("Display name (optional)").fill("Root Admin");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.screenshot({ path: "/tmp/cairn-setup-admin.png" });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Identity provider" }).waitFor();
    const users = (await app.json("GET", "/api/init/status")).data;
    expect(users).toEqual({ configured: false });
    // Going back shows the admin as created rather than the form again.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByText("You are signed in as root, an administrator.").waitFor();
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByLabel("Another Cairn instance").check();
    await page.getByRole("button", { name: "Next" }).click();
    // Required fields are checked before moving on, with the error tied to its field.
    expect(await page.getByRole("alert").first().textContent()).toContain("Required.");
    await page.getByLabel("Identity provider URL").fill("https://id.example.com/");
    await page.getByLabel("Client ID").fill("workspace-app");
    await page.getByLabel("Public client with PKCE").uncheck();
    await page.getByLabel("Client secret").fill("very-secret");
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByLabel("Allowed team (optional)").fill("family");
    await page.getByLabel("Owner teams (optional)").fill("parents, admins");
    await page.getByRole("button", { name: "Next" }).click();

    await expect(page.getByText("https://id.example.com/").isVisible()).resolves.toBe(true);
    await page.screenshot({ path: "/tmp/cairn-setup-review.png" });
    await page.getByRole("button", { name: "Finish setup" }).click();
    await page.getByRole("heading", { name: "Cairn is ready" }).waitFor();

    expect((await app.json("GET", "/api/init/status")).data).toEqual({ configured: true });
    expect((await app.json("GET", "/api/init/config")).data.config).toEqual({
      idp_base_url: "https://id.example.com",
      idp_client_id: "workspace-app",
      idp_client_secret: "",
      idp_redirect_uri: `${app.url}/api/workspace/callback`,
      use_pkce: false,
      allowed_team_id: "family",
      owner_team_id: "parents, admins",
    });
    expect(errors).toEqual([]);

    // The admin stays signed in: the wizard set the session cookie.
    const session = await page.evaluate(async () => (await fetch("/api/auth/session")).json());
    expect(session.user).toMatchObject({ username: "root", role: "admin", name: "Root Admin" });

    // Afterwards the wizard says the instance is set up, and home greets the admin.
    await page.goto(`${app.url}/setup`);
    await page.getByRole("heading", { name: "Already configured" }).waitFor();
    await page.goto(app.url);
    await page.getByRole("heading", { name: "Welcome, Root Admin" }).waitFor();
    await page.getByRole("link", { name: "Admin", exact: true }).waitFor();
    await page.close();
  });

  it("is keyboard-operable and asks once for the setup token, for the admin account and the setup call", async () => {
    const guarded = await startApp({ env: { CAIRN_SETUP_TOKEN: "open-sesame-token" } });
    try {
      const page = await browser.newPage();
      await page.goto(`${guarded.url}/setup`);
      await page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
      // Typing and Enter only: Tab from the username through the fields, Enter submits.
      await page.getByLabel("Username").focus();
      await page.keyboard.type("keyadmin");
      await page.keyboard.press("Tab");
      await page.keyboard.type("keyadmin@example.com");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      // The server wants its token for the first account: asked once, next to the form.
      await page.getByLabel("Setup token").waitFor();
      expect(await page.getByRole("alert").first().textContent()).toBe("This server asks for its setup token.");
      await page.getByLabel("Setup token").fill("open-sesame-token");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Identity provider" }).waitFor();
      // Enter submits each later step's form: the default "This Cairn instance" needs nothing more.
      for (const name of ["Next", "Next"]) {
        await page.getByRole("button", { name }).focus();
        await page.keyboard.press("Enter");
      }
      // The same token is reused for the setup call: no second prompt.
      await page.getByRole("button", { name: "Finish setup" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Cairn is ready" }).waitFor();
      expect((await guarded.json("GET", "/api/init/config")).data.config.idp_base_url).toBe(guarded.url);
      await page.close();
    } finally {
      await guarded.stop();
    }
  });

  it("sends a visitor of an instance that already has accounts to sign in as its administrator", async () => {
    const used = await startApp();
    try {
      await signUp(used, "owner"); // the first account: the admin
      await updateSiteConfig(used.ctx, { registration: "invite" });
      const page = await browser.newPage();
      await page.goto(`${used.url}/setup`);
      await page.getByLabel("Username").fill("latecomer");
      await page.getByLabel("Email").fill("latecomer@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByText("Registration needs an invitation.").waitFor();
      await page.getByRole("link", { name: "Sign in as an administrator" }).click();
      await page.waitForURL(`${used.url}/login?return_to=%2Fsetup`);
      await page.getByLabel("Username or email").fill("owner");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${used.url}/setup`);
      await page.getByText("You are signed in as owner, an administrator.").waitFor();
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByRole("heading", { name: "Identity provider" }).waitFor();
      await page.close();
    } finally {
      await used.stop();
    }
  });
});
