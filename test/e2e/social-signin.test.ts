import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp, type SignedUp, totpCode } from "../helpers/identity.ts";
import { addUpstreamProvider } from "../identity/social.fixtures.ts";
import { openPage, sessionOf, shot } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Two real Cairn instances: the upstream provider on 127.0.0.1, the one signed in to on
// localhost (another host, so the two sites' cookies stay apart in one browser).
describe.skipIf(browserSkipReason !== null)("signing in with another Cairn as the upstream provider, in Chromium", () => {
  let browser: Browser;
  let upstream: TestApp;
  let down: TestApp;
  let admin: SignedUp;

  beforeAll(async () => {
    browser = await launchBrowser();
    upstream = await startApp();
    down = await startApp({ host: "localhost", overrides: { outbound: { allowLoopback: true } } });
    const root = await signUp(upstream, "root");
    await signUp(upstream, "ada", { name: "Ada Lovelace" });
    admin = await signUp(down, "admin");
    await addUpstreamProvider(upstream, root, down, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await down?.stop();
    await upstream?.stop();
  });

  /** The login page's button, then Ada's password at the upstream (and its consent the first time). */
  async function signInAtUpstream(page: Page, returnTo: string, landed = true) {
    await page.goto(`${down.url}/login?return_to=${encodeURIComponent(returnTo)}`);
    await page.getByRole("link", { name: "Sign in with Upstream Cairn" }).click();
    await page.waitForURL((url) => url.origin === upstream.url && url.pathname === "/login");
    await page.getByLabel("Username or email").fill("ada");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/consent" || url.origin === down.url);
    if (new URL(page.url()).pathname === "/consent") await page.getByRole("button", { name: "Approve" }).click();
    if (landed) await page.waitForURL(`${down.url}${returnTo}`);
    else await page.waitForURL((url) => url.origin === down.url && url.pathname === "/login");
  }

  it("the login page's button signs in at the provider (password, consent) and comes back signed in", async () => {
    const { page, errors } = await openPage(browser);
    await signInAtUpstream(page, "/account");
    const { body } = await sessionOf(page);
    expect(body.user).toMatchObject({ username: "ada", name: "Ada Lovelace" });
    expect(body.session.amr).toEqual(["ext"]);
    // The account page: the link, and a password to set (there is none yet).
    const linked = page.getByRole("list", { name: "Your linked accounts" });
    await linked.getByText("Upstream Cairn").waitFor();
    await page.getByRole("button", { name: "Set a password" }).waitFor();
    await shot(page, "account-linked-accounts");
    expect(errors).toEqual([]);
  });

  it("an account with TOTP is asked for a code after the provider, on the login page", async () => {
    // Ada (made by the first test) enrols TOTP over the API in her browser.
    const { page } = await openPage(browser);
    await signInAtUpstream(page, "/account");
    const secret = await page.evaluate(async () => ((await (await fetch("/api/oauth/me/totp", { method: "POST" })).json()) as { secret: string }).secret);
    const code = await totpCode(secret, Date.now());
    expect(
      await page.evaluate(
        async (c) =>
          (await fetch("/api/oauth/me/totp/confirm", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: c }) }))
            .status,
        code,
      ),
    ).toBe(200);

    const next = (await openPage(browser)).page;
    await signInAtUpstream(next, "/apps", false);
    await next.getByLabel("Authentication code").waitFor();
    // The ticket rode in the fragment and is gone from the address bar.
    expect(new URL(next.url()).hash).toBe("");
    await next.getByLabel("Authentication code").fill(await totpCode(secret, Date.now(), 1));
    await next.getByRole("button", { name: "Verify" }).click();
    await next.waitForURL(`${down.url}/apps`);
    expect((await sessionOf(next)).body.session.amr).toEqual(["ext", "otp", "mfa"]);
  });

  it("an administrator adds a GitHub provider on the admin page; the login page then shows both buttons", async () => {
    const { context, page } = await openPage(browser);
    await context.addCookies([...admin.browser.cookies].map(([name, value]) => ({ name, value, url: down.url })));
    await page.goto(`${down.url}/admin#sign-in-providers`);
    const list = page.getByRole("list", { name: "Sign-in providers" });
    await list.getByText("1 linked", { exact: false }).waitFor();
    const card = page.locator("#sign-in-providers");
    await card.getByLabel("Kind").selectOption("github");
    await card.getByLabel("Name", { exact: true }).fill("GitHub");
    await card.getByLabel("Slug", { exact: true }).fill("github");
    // The callback URL to register at GitHub is shown before adding.
    await card.getByText(`${down.url}/api/auth/social/github/callback`).waitFor();
    await card.getByLabel("Client ID").fill("Iv1.example");
    await card.getByLabel("Client secret").fill("an oauth app secret");
    await card.getByRole("button", { name: "Add provider" }).click();
    await list.getByText("GitHub", { exact: true }).first().waitFor();
    expect(await page.getByRole("textbox", { name: "Callback URL for GitHub" }).inputValue()).toBe(`${down.url}/api/auth/social/github/callback`);
    // Edited in place (a new secret, a new name): its links and callback stay.
    await card.getByRole("button", { name: "Edit GitHub" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill("GitHub.com");
    await dialog.getByLabel("New client secret").fill("a rotated secret");
    await dialog.getByRole("button", { name: "Save" }).click();
    await list.getByText("GitHub.com", { exact: true }).waitFor();
    await shot(page, "admin-sign-in-providers");

    const visitor = (await openPage(browser)).page;
    await visitor.goto(`${down.url}/login`);
    await visitor.getByRole("link", { name: "Sign in with GitHub.com" }).waitFor();
    expect(await visitor.getByRole("link", { name: /^Sign in with / }).allTextContents()).toEqual(["Sign in with Upstream Cairn", "Sign in with GitHub.com"]);
    expect(await visitor.getByRole("link", { name: "Sign in with GitHub.com" }).getAttribute("href")).toBe("/api/auth/social/github/start?return_to=%2F");
  });
});
