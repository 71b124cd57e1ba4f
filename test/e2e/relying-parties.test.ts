import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { REDIRECT, registerApp } from "../helpers/oauth.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, openWorkspace, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/* Issue 42: signing out of the workspace, apps the admin made, and links on a localhost address. */
describe.skipIf(browserSkipReason !== null)("relying parties in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    // The quick start's address: the issuer is http://localhost:<port>.
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Adams" }); // the admin
    await signUp(app, "bob");
    await ensureSetup(app);
    ({ page, errors } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Opening /w again must ask for a sign-in: the IdP's session ended as well as the workspace's. */
  async function expectSignInAsked(p: Page) {
    await p.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign in" }).waitFor();
    await p.goto(`${app.url}/w`);
    await p.waitForURL((url) => url.pathname === "/login");
    await p.getByLabel("Username or email").waitFor();
  }

  it("the workspace's Sign out ends the IdP session too: /w then asks for a sign-in", async () => {
    await signInWithPassword(page, app, "alice", PASSWORD);
    await openWorkspace(page, app);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${app.url}/`);
    await expectSignInAsked(page);
  });

  it("the user menu's Sign out does the same", async () => {
    await signInWithPassword(page, app, "alice", PASSWORD);
    await openWorkspace(page, app);
    await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${app.url}/`);
    await expectSignInAsked(page);
  });

  it("the account page has one Sign out; another device's session is ended by 'End session'", async () => {
    await signInWithPassword(page, app, "alice", PASSWORD);
    await page.goto(`${app.url}/account`);
    const sessions = page.getByRole("list", { name: "Signed-in sessions" });
    await sessions
      .getByRole("button", { name: /^End the session on / })
      .first()
      .waitFor();
    expect(await page.getByRole("button", { name: "Sign out", exact: true }).count()).toBe(1);
    expect(await sessions.getByText("Sign out", { exact: true }).count()).toBe(0);
  });

  it("the consent page shows an app the admin registered as verified, and a member's as unverified", async () => {
    const admins = await registerApp(alice, { name: "Family photos" });
    const members = await registerApp(await signUp(app, "carol"), { name: "Carol's tool" });
    const consentFor = async (clientId: string) => {
      const url = new URL(`${app.url}/api/oauth/authorize`);
      for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: REDIRECT, response_type: "code", scope: "openid profile", state: "s" }))
        url.searchParams.set(k, v);
      await page.goto(url.href);
      await page.waitForURL((u) => u.pathname === "/consent");
    };
    await consentFor(admins.client_id);
    await page.getByRole("heading", { name: "Allow Family photos to use your account?" }).waitFor();
    await page.getByText("Verified app").waitFor();
    expect(await page.getByText("Unverified", { exact: false }).count()).toBe(0);
    await shot(page, "consent-admin-app");

    await consentFor(members.client_id);
    await page.getByRole("heading", { name: "Allow Carol's tool to use your account?" }).waitFor();
    await page.getByText("Unverified app.").waitFor();
  });

  it("warns that other machines cannot reach localhost, on a catalog app's settings and in the share dialog", async () => {
    const grafana = await alice.browser.json("POST", "/api/oauth/me/integrations/grafana", { base_url: "https://grafana.example.com" });
    expect(grafana.status).toBe(201);
    await page.goto(`${app.url}/apps/${grafana.data.client_id}`);
    const setup = page.locator("#setup");
    await setup.getByRole("figure", { name: "Configuration for Grafana" }).waitFor();
    const warning = setup.getByRole("note").filter({ hasText: "Other machines cannot reach localhost." });
    await warning.getByText("CAIRN_ISSUER", { exact: false }).waitFor();
    expect(await warning.textContent()).toContain("grafana.example.com");
    await shot(page, "catalog-localhost-warning");

    // An app on this machine itself is reached fine: no warning.
    const local = await registerApp(alice, { name: "Local tool", redirect_uris: [{ uri: "http://localhost:8080/cb", match: "equals" }] });
    await page.goto(`${app.url}/apps/${local.client_id}`);
    await page.getByLabel("Client ID", { exact: true }).waitFor();
    expect(await page.getByText("Other machines cannot reach localhost.").count()).toBe(0);

    await openWorkspace(page, app);
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: /^Share “/ });
    await dialog.getByRole("note").filter({ hasText: "Other machines cannot reach localhost." }).waitFor();
    expect(errors).toEqual([]);
  });
});
