import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signInWithTotp, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, signInWithPassword } from "./flows.ts";
import { expectFocus } from "./keyboard.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

const keyboardOf = async (field: Locator) => ({ inputmode: await field.getAttribute("inputmode"), autocomplete: await field.getAttribute("autocomplete") });
const DIGITS = { inputmode: "numeric", autocomplete: "one-time-code" };
// Backup codes hold letters: the full keyboard, still offered as a one-time code.
const LETTERS = { inputmode: null, autocomplete: "one-time-code" };

describe.skipIf(browserSkipReason !== null)("sign-in steps take the focus, code fields get the right keyboard (issue 42 item 8)", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    await ensureSetup(app);
    const dora = await signUp(app, "dora");
    await signInWithTotp(app, dora, () => Date.now());
    await signUp(app, "eve");
    ({ page, errors } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("focuses the first sign-in field, then the second step's code field, numeric for an authenticator code", async () => {
    await page.goto(`${app.url}/login`);
    await expectFocus(page, "field Username or email");
    await page.keyboard.type("dora");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await expectFocus(page, "field Authentication code");
    expect(await keyboardOf(page.getByLabel("Authentication code"))).toEqual(DIGITS);

    await page.getByRole("radio", { name: /^Backup code/ }).check();
    expect(await keyboardOf(page.getByRole("textbox", { name: "Backup code" }))).toEqual(LETTERS);
    // Changing the method leaves the focus on the choice, so arrows still move between methods.
    expect(await page.getByRole("radio", { name: /^Backup code/ }).evaluate((radio) => radio === document.activeElement)).toBe(true);
    await page.getByRole("button", { name: "Start over" }).click();
    await expectFocus(page, "field Username or email");
    expect(errors).toEqual([]);
  });

  it("focuses the code field when authenticator setup appears", async () => {
    await signInWithPassword(page, app, "eve", PASSWORD);
    await page.goto(`${app.url}/account`);
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    await expectFocus(page, "field Code from the app");
    expect(await keyboardOf(page.getByLabel("Code from the app"))).toEqual(DIGITS);
    expect(errors).toEqual([]);
  });
});
