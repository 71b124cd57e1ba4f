import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, openWorkspace, sessionOf, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Issue 40 item 2: deleting an account from the admin page (typed confirmation) and from /account.
describe.skipIf(browserSkipReason !== null)("deleting accounts in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let admin: SignedUp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    admin = await signUp(app, "alice", { name: "Alice Admin" });
    await ensureSetup(app); // the built-in workspace client, for the workspace's cookie
    ({ page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "alice", PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("an administrator deletes an account after typing its username; a sole team owner is refused with the team named", async () => {
    const bob = await signUp(app, "bob", { name: "Bob Builder" });
    const carol = await signUp(app, "carol");
    const patio = (await carol.browser.json("POST", "/api/oauth/me/teams", { name: "Patio" })).data.team;
    expect((await carol.browser.json("POST", `/api/oauth/me/teams/${patio.id}/members`, { username: "alice", role: "member" })).status).toBe(201);

    await page.goto(`${app.url}/admin`);
    await page.getByRole("heading", { name: "Administration" }).waitFor();
    // One's own row offers no deletion (that is on the account page, with one's password).
    await page.getByLabel("Role of alice").waitFor();
    expect(await page.getByRole("button", { name: "Delete alice" }).count()).toBe(0);

    await page.getByRole("button", { name: "Delete bob" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete bob?" });
    await dialog.waitFor();
    // A near miss deletes nothing.
    await dialog.getByLabel("Type bob to confirm").fill("bo");
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await dialog.getByText("Type bob to confirm.", { exact: true }).waitFor();
    expect((await bob.browser.json("GET", "/api/auth/session")).status).toBe(200);
    await shot(page, "admin-delete-user");

    await dialog.getByLabel("Type bob to confirm").fill("bob");
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await page.getByText("bob was deleted.").waitFor();
    await dialog.waitFor({ state: "hidden" });
    await page.getByLabel("Role of bob").waitFor({ state: "detached" });
    expect((await bob.browser.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await admin.bearer("GET", "/api/oauth/admin/users?q=bob")).data.users).toEqual([]);
    // The audit log still lists what bob did, by a deleted user.
    const audit = page.locator("#admin-audit");
    await audit.getByRole("button", { name: "Refresh" }).click();
    await audit.getByRole("cell", { name: "user.deleted" }).waitFor();
    await audit.getByRole("row", { name: /user\.registered.*deleted user/ }).waitFor();
    expect(await audit.textContent()).not.toContain("bob@example.com");

    // Carol alone owns Patio: the server's refusal shows in the dialog, which stays open.
    await page.getByRole("button", { name: "Delete carol" }).click();
    const carolDialog = page.getByRole("dialog", { name: "Delete carol?" });
    await carolDialog.getByLabel("Type carol to confirm").fill("carol");
    await carolDialog.getByRole("button", { name: "Delete account" }).click();
    await carolDialog.getByText(/would be left without an owner: “Patio”/).waitFor();
    expect((await carol.browser.json("GET", "/api/auth/session")).status).toBe(200);
    await carolDialog.getByRole("button", { name: "Cancel" }).click();
    await carolDialog.waitFor({ state: "hidden" });
    expect(errors).toEqual([]);
  });

  it("a person deletes their own account from /account with their password; both cookies go and they are signed out", async () => {
    await signUp(app, "dave", { name: "Dave Doe" });
    const own = await openPage(browser);
    await signInWithPassword(own.page, app, "dave", PASSWORD);
    await openWorkspace(own.page, app);
    const cookieNames = async () => (await own.context.cookies()).map((c) => c.name).sort();
    expect(await cookieNames()).toEqual(expect.arrayContaining(["cairn_session", "cairn_ws"]));

    await own.page.goto(`${app.url}/account`);
    await own.page.getByRole("heading", { name: "Delete your account" }).waitFor();
    await own.page.getByRole("button", { name: "Delete account…" }).click();
    const dialog = own.page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByLabel("Password").fill("not my password");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.getByText("The password is not right.").waitFor();
    expect((await sessionOf(own.page)).status).toBe(200);
    await shot(own.page, "account-delete");

    await dialog.getByLabel("Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await own.page.getByText("Your account was deleted.").waitFor();
    await own.page.waitForURL(`${app.url}/`);
    await own.page.getByRole("link", { name: "Sign in" }).first().waitFor();
    expect((await sessionOf(own.page)).status).toBe(401);
    const left = await cookieNames();
    expect(left).not.toContain("cairn_session");
    expect(left).not.toContain("cairn_ws");
    expect(await own.page.evaluate(async () => (await fetch("/api/workspace/me")).status)).toBe(401);
    expect((await jarFetch(app.url).json("POST", "/api/auth/login", { login: "dave", password: PASSWORD })).status).toBe(401);
    expect(own.errors).toEqual([]);
    await own.context.close();
  });
});
