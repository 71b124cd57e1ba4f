import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/**
 * Issue 42, item 16: a signed-out visit makes no request that answers 4xx (the app shell says
 * there is no session, so the SPA does not ask), and leaves the console clean.
 */
describe.skipIf(browserSkipReason !== null)("a signed-out visit in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const refused: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp();
    await signUp(app, "ada");
    await ensureSetup(app);
    page = await (await browser.newContext()).newPage();
    page.on("response", (res) => {
      if (res.status() >= 400) refused.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("/ shows the welcome card without asking for a session", async () => {
    await page.goto(`${app.url}/`);
    await page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(refused).toEqual([]);
  });

  it("/login shows the sign-in form without asking for a session", async () => {
    await page.goto(`${app.url}/login`);
    await page.getByLabel("Username or email").waitFor();
    await page.waitForLoadState("networkidle");
    expect(refused).toEqual([]);
  });

  it("/docs shows the built-in guide", async () => {
    await page.goto(`${app.url}/docs`);
    await page.getByRole("navigation", { name: "Pages", exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(refused).toEqual([]);
  });

  it("/2fa opened without a request says what the page is for, rather than that something expired", async () => {
    await page.goto(`${app.url}/2fa`);
    await page.getByRole("heading", { name: "No confirmation request" }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("This page is opened by an app asking you to confirm");
    expect(await page.getByText("expired").count()).toBe(0);
    await page.waitForLoadState("networkidle");
    expect(refused).toEqual([]);
  });

  it("the console stayed clean", () => {
    expect(consoleErrors).toEqual([]);
  });

  it("signing in on the page still finds the session (the hint is only the first word)", async () => {
    await page.goto(`${app.url}/login`);
    await page.getByLabel("Username or email").fill("ada");
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Welcome, ada" }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Welcome, ada" }).waitFor();
  });
});
