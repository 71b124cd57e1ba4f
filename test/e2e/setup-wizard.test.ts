import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";

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

  it("sends the first visitor to the wizard and configures another Cairn as the identity provider", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(app.url);
    await page.waitForURL(`${app.url}/setup`);
    await page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
    await page.getByRole("button", { name: "Get started" }).click();

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

    // Afterwards the wizard says the instance is set up, and home no longer redirects.
    await page.goto(`${app.url}/setup`);
    await page.getByRole("heading", { name: "Already configured" }).waitFor();
    await page.goto(app.url);
    await page.getByRole("heading", { name: "Cairn is running" }).waitFor();
    await page.close();
  });

  it("is keyboard-operable and asks for the setup token when the server requires one", async () => {
    const guarded = await startApp({ env: { CAIRN_SETUP_TOKEN: "open-sesame-token" } });
    try {
      const page = await browser.newPage();
      await page.goto(`${guarded.url}/setup`);
      await page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
      // Enter submits each step's form: the default "This Cairn instance" needs nothing more.
      for (const name of ["Get started", "Next", "Next"]) {
        await page.getByRole("button", { name }).focus();
        await page.keyboard.press("Enter");
      }
      await page.getByRole("button", { name: "Finish setup" }).click();
      await page.getByLabel("Setup token").fill("open-sesame-token");
      await page.getByRole("button", { name: "Finish setup" }).click();
      await page.getByRole("heading", { name: "Cairn is ready" }).waitFor();
      expect((await guarded.json("GET", "/api/init/config")).data.config.idp_base_url).toBe(guarded.url);
      await page.close();
    } finally {
      await guarded.stop();
    }
  });
});
