import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Issue 44 item 1, in Chromium: Admin → Mail shows how mail goes out and sends a test email that
// arrives and is listed as sent; without SMTP it names the variables to set.
describe.skipIf(browserSkipReason !== null)("Admin → Mail in Chromium", () => {
  let browser: Browser;
  let smtp: TestSmtp;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.stop();
    await smtp?.stop();
  });

  async function adminOf(env: Record<string, string>) {
    const app = await startApp({ host: "localhost", env });
    apps.push(app);
    await signUp(app, "alice");
    await ensureSetup(app);
    const { context, page, errors } = await openPage(browser);
    await signInWithPassword(page, app, "alice", PASSWORD);
    await page.goto(`${app.url}/admin#mail`);
    const section = page.locator("section#mail");
    await section.getByRole("heading", { name: "Mail", exact: true }).waitFor();
    return { app, context, page, errors, section };
  }

  it("sends a test email from the button; it arrives and the list shows it sent", async () => {
    const { context, errors, section } = await adminOf({ CAIRN_SMTP_URL: smtp.url, CAIRN_SMTP_FROM: "Cairn <cairn@example.org>" });
    await section.getByText("Configured", { exact: true }).waitFor();
    await section.getByText(`127.0.0.1:${smtp.port}`).waitFor();
    await section.getByText("Cairn <cairn@example.org>").waitFor();
    await section.getByLabel("Send a test email to").fill("browser@example.org");
    await section.getByRole("button", { name: "Send a test email" }).click();
    const mail = await smtp.waitFor((m) => m.to.includes("browser@example.org"));
    expect(mail.subject).toBe("Test email from Cairn");
    const row = section.getByRole("row").filter({ hasText: "browser@example.org" });
    await section.getByRole("button", { name: "Refresh" }).click();
    await row.getByText("Sent", { exact: true }).waitFor();
    await section.screenshot({ path: "/tmp/cairn-admin-mail.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("without SMTP, says mail is not set up and which variables to set", async () => {
    const { context, errors, section } = await adminOf({});
    await section.getByText("Not configured", { exact: true }).waitFor();
    await section.getByText("Mail is not set up.").waitFor();
    await section.getByText("CAIRN_SMTP_URL (or CAIRN_SMTP_HOST)").waitFor();
    await section.getByText("CAIRN_SMTP_FROM").waitFor();
    expect(await section.getByRole("button", { name: "Send a test email" }).count()).toBe(0);
    await section.screenshot({ path: "/tmp/cairn-admin-mail-not-configured.png" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
