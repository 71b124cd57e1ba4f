import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { openPage, sessionOf, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/* An app sends Alice to end_session without an ID token hint: she confirms on the logout page. */
describe.skipIf(browserSkipReason !== null)("the logout confirmation page in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    await signUp(app, "alice");
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("asks before signing out; staying keeps the session, confirming ends it", async () => {
    const { page, errors } = await openPage(browser);
    await signInWithPassword(page, app, "alice", PASSWORD);
    await page.goto(`${app.url}/api/oauth/end_session`);
    await page.getByRole("heading", { name: "Sign out?" }).waitFor();
    expect(await page.getByText("You are signed in as alice").count()).toBe(1);
    await page.getByRole("button", { name: "Stay signed in" }).click();
    await page.waitForURL(`${app.url}/`);
    expect((await sessionOf(page)).status).toBe(200);

    await page.goto(`${app.url}/api/oauth/end_session`);
    await page.locator("section.card").getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "You are signed out" }).waitFor();
    expect((await sessionOf(page)).status).toBe(401);
    expect(errors).toEqual([]);
  });
});
