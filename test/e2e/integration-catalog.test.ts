import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { openPage, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

describe.skipIf(browserSkipReason !== null)("the integration catalog in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    await signUp(app, "alice", { name: "Alice Adams" });
    ({ page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "alice", PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("registers Grafana from its entry, shows the configuration to paste with the real values, and a test login passes", async () => {
    await page.goto(`${app.url}/apps`);
    const card = page.locator("#new-app");
    await card.getByRole("heading", { name: "What are you connecting?" }).waitFor();
    await card.getByLabel("Search applications").fill("graf");
    const apps = card.getByRole("list", { name: "Applications" });
    await apps.getByRole("button", { name: /Grafana/ }).click();

    const form = card.getByRole("form", { name: "Register Grafana" });
    await form.getByLabel("Grafana's address (its root_url)").fill("https://grafana.example.com/");
    // The preview shows the exact redirect URI before anything is registered.
    await form.getByText("https://grafana.example.com/login/generic_oauth").waitFor();
    await form.getByText("RS256", { exact: false }).first().waitFor();
    await shot(page, "catalog-grafana-form");
    await form.getByRole("button", { name: "Register Grafana" }).click();

    const notice = page.getByRole("region", { name: "New app credentials" });
    await notice.getByRole("heading", { name: "Grafana is registered" }).waitFor();
    const clientId = await notice.getByLabel("Client ID", { exact: true }).inputValue();
    const secret = await notice.getByLabel("Client secret", { exact: true }).inputValue();
    const snippet = (await notice.getByRole("figure", { name: "Configuration for Grafana" }).textContent()) ?? "";
    expect(snippet).toContain(`client_id = ${clientId}\n`);
    expect(snippet).toContain(`client_secret = ${secret}\n`);
    expect(snippet).toContain(`auth_url = ${app.url}/api/oauth/authorize\n`);
    expect(snippet).toContain("root_url = https://grafana.example.com\n");

    // The secret is known here: the test login runs at once.
    await notice.getByRole("button", { name: "Test login" }).click();
    const result = notice.getByRole("status");
    await result.getByText("The sign-in works.").waitFor();
    const steps = await result.getByRole("list", { name: "Test login steps" }).getByRole("listitem").allTextContents();
    expect(steps.map((s) => s.split(":")[0]?.replace("✓", "").trim())).toEqual([
      "Authorization request",
      "Sign-in and consent",
      "Token exchange",
      "ID token",
      "Userinfo",
      "Refresh",
    ]);
    const seen = result.getByRole("table", { name: "What the app sees" });
    await seen.getByRole("row", { name: /preferred_username alice/ }).waitFor();
    await seen.getByRole("row", { name: /name Alice Adams/ }).waitFor();
    await shot(page, "catalog-grafana-registered");

    // On the app's page later: the configuration without the secret, and a test login that asks for it.
    await page.goto(`${app.url}/apps/${clientId}`);
    const setup = page.locator("#setup");
    const again = (await setup.getByRole("figure", { name: "Configuration for Grafana" }).textContent()) ?? "";
    expect(again).not.toContain(secret);
    await setup.getByRole("button", { name: "Test login" }).click();
    await setup.getByText("client_secret is required").waitFor();
    await setup.getByLabel("Client secret").fill("not the secret");
    await setup.getByRole("button", { name: "Test login" }).click();
    await setup.getByText("The sign-in fails.").waitFor();
    await setup.getByText(/Token exchange: 401 invalid_client/).waitFor();
    await setup.getByLabel("Client secret").fill(secret);
    await setup.getByRole("button", { name: "Test login" }).click();
    await setup.getByText("The sign-in works.").waitFor();
    expect(errors).toEqual([]);
  });

  it("keeps every setting by hand one click away", async () => {
    await page.goto(`${app.url}/apps`);
    const card = page.locator("#new-app");
    await card.getByRole("button", { name: "Register with custom settings" }).click();
    await card.getByRole("button", { name: "Register app" }).waitFor();
    await card.getByRole("button", { name: "Back to the applications" }).click();
    await card.getByRole("heading", { name: "What are you connecting?" }).waitFor();
    expect(errors).toEqual([]);
  });
});
