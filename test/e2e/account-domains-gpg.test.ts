import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as openpgp from "openpgp";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { signUp } from "../helpers/identity.ts";
import { shot } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

describe.skipIf(browserSkipReason !== null)("custom domains and GPG keys on the account page, in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const records = new Map<string, string[][]>();

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ overrides: { dns: { resolveTxt: async (name: string) => records.get(name) ?? [] } } });
    const ada = await signUp(app, "ada");
    const context = await browser.newContext();
    await context.addCookies([...ada.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("adds a domain, shows the TXT record to publish, and verifies it with Check now", async () => {
    await page.goto(`${app.url}/account#domains`);
    await page.getByLabel("Domain", { exact: true }).fill("ada.example");
    await page.getByRole("button", { name: "Add domain" }).click();
    const name = page.getByRole("textbox", { name: "TXT record name for ada.example" });
    await name.waitFor();
    expect(await name.inputValue()).toBe("_cairn-challenge.ada.example");
    const value = await page.getByRole("textbox", { name: "TXT record value for ada.example" }).inputValue();
    records.set("_cairn-challenge.ada.example", [[value]]);
    await page.getByRole("button", { name: "Check ada.example now" }).click();
    await page.getByRole("list", { name: "Your domains" }).getByText("Verified", { exact: true }).waitFor();
    await shot(page, "account-domains");
  });

  it("adds a GPG public key and lists its key id and user id", async () => {
    const { publicKey } = (await openpgp.generateKey({
      type: "ecc",
      curve: "curve25519Legacy",
      userIDs: [{ name: "Ada Lovelace", email: "ada@example.com" }],
      format: "armored",
    } as never)) as unknown as { publicKey: string };
    const keyId = (await openpgp.readKey({ armoredKey: publicKey })).getKeyID().toHex().toUpperCase();
    await page.getByLabel("Public key").fill(publicKey);
    await page.getByRole("button", { name: "Add key" }).click();
    const list = page.getByRole("list", { name: "Your GPG keys" });
    await list.getByText(keyId, { exact: true }).waitFor();
    expect(await list.textContent()).toContain("Ada Lovelace <ada@example.com>");
  });
});
