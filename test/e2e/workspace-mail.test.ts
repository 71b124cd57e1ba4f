import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { mailEnv } from "../helpers/workspace-mail.ts";
import { addTodos, openPage, ownerInNewSet, shot } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Issue 44 items 6 and 7 in Chromium: a share link that mails a one-time code before its page
// opens, walked by a stranger; and the notices in the workspace preferences.
describe.skipIf(browserSkipReason !== null)("workspace mail in Chromium", () => {
  let browser: Browser;
  let smtp: TestSmtp;
  let app: TestApp;
  let teamId: string;
  let setId: string;
  let owner: Page;
  let ownerErrors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    smtp = await startSmtp();
    app = await startApp({ host: "localhost", env: mailEnv(smtp.url) });
    ({ page: owner, errors: ownerErrors, teamId, setId } = await ownerInNewSet(browser, app, "Groceries"));
    await addTodos(owner, teamId, setId, [["Milk", null]]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.stop();
  });

  it("a link that requires a code: the stranger asks for it, a wrong code is refused, the mailed one opens the list", async () => {
    await owner.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = owner.getByRole("dialog", { name: "Share “Groceries”" });
    const create = dialog.getByRole("region", { name: "New link" });
    const needsCode = create.getByLabel("Send a code to the address before the list opens");
    // A code is checked against the list: without addresses there is nothing to send it to.
    expect(await needsCode.isDisabled()).toBe(true);
    await create.getByLabel("Name").fill("For Ann");
    await create.getByLabel("Allowed emails").fill("ann@example.com");
    await needsCode.check();
    await create.getByRole("button", { name: "Create link" }).click();
    const card = dialog.getByRole("listitem", { name: "For Ann" });
    await card.getByText("A code is mailed to the address before the list opens.").waitFor();
    const link = await card.getByRole("textbox", { name: "Public link" }).inputValue();
    await dialog.getByRole("button", { name: "Close" }).click();

    const stranger = await openPage(browser);
    const visitor = stranger.page;
    await visitor.goto(link);
    await visitor.getByLabel("Your email").fill("ann@example.com");
    await visitor.getByRole("button", { name: "Send me a code" }).click();
    await visitor.getByText("If ann@example.com is on the list, a code is on its way to it.").waitFor();
    const mail = await smtp.waitFor((m) => m.to.includes("ann@example.com"));
    const code = (/\b(\d{6})\b/.exec(mail.subject) as RegExpExecArray)[1] as string;
    await shot(visitor, "shared-email-code");

    await visitor.getByLabel("Code from the mail").fill(code === "000000" ? "111111" : "000000");
    await visitor.getByRole("button", { name: "Open the list" }).click();
    await visitor.getByText("Wrong or expired code").waitFor();
    await visitor.getByLabel("Code from the mail").fill(code);
    await visitor.getByRole("button", { name: "Open the list" }).click();
    await visitor.getByRole("heading", { name: "Groceries" }).waitFor();
    await visitor.getByText("Milk").waitFor();
    await visitor.getByRole("status").getByText("Live", { exact: true }).waitFor();
    await visitor.getByText("Opened as").waitFor();

    // The grant is kept for this tab: a reload opens the list without another code.
    await visitor.reload();
    await visitor.getByRole("heading", { name: "Groceries" }).waitFor();
    expect(smtp.messages.filter((m) => m.to.includes("ann@example.com"))).toHaveLength(1);
    await stranger.context.close();
    expect(stranger.errors).toEqual([]);
    expect(ownerErrors).toEqual([]);
  });

  it("the preferences say where notices go, and turn them on", async () => {
    await owner.goto(`${app.url}/w/settings`);
    await owner.getByText("Notices go to alice@example.com.").waitFor();
    await owner.getByLabel("When someone assigns me a todo").check();
    await owner.getByRole("button", { name: "Save preferences" }).click();
    await owner.getByText("Preferences saved.").waitFor();
    const saved = await owner.evaluate(async () => (await (await fetch("/api/user/settings")).json()).settings);
    expect(saved).toMatchObject({ notify_assigned: true });
    expect(saved.notify_comments).not.toBe(true);
    await shot(owner, "workspace-notices");
    expect(ownerErrors).toEqual([]);
  });
});
