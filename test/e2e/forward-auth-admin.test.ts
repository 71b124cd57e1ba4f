import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { openPage, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

describe.skipIf(browserSkipReason !== null)("forward auth's administration in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    const alice = await signUp(app, "alice", { name: "Alice Admin" }); // the first account: the admin
    await signUp(app, "bob", { name: "Bob Member" });
    await signUp(app, "carol", { name: "Carol Outsider" });
    const team = await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Media" });
    const added = await alice.browser.json("POST", `/api/oauth/me/teams/${team.data.team.id}/members`, { username: "bob", role: "member" });
    expect(added.status).toBe(201);
    ({ page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "alice", PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const section = () => page.locator("#forward-auth");
  const ruleHosts = async () => (await section().getByRole("list", { name: "Forward auth rules" }).locator("li strong").allTextContents()).map((t) => t.trim());

  it("adds a rule for a team, saying beside the field what the API refused, and reorders the rules", async () => {
    await page.goto(`${app.url}/admin#forward-auth`);
    await section().getByText("No rule yet").waitFor();

    await section().getByRole("button", { name: "Add a rule" }).click();
    let dialog = page.getByRole("dialog", { name: "Add a forward-auth rule" });
    await dialog.getByLabel("Host").fill("https://media.home.example");
    await dialog.getByLabel("Everyone signed in").uncheck();
    await dialog.getByLabel("Members of team Media").check();
    await dialog.getByRole("button", { name: "Add rule" }).click();
    // The API's invalid_rule, in words, beside the host, which takes the focus.
    await dialog.getByText("Give the host name alone, without a scheme such as https://.").waitFor();
    expect(await dialog.getByLabel("Host").evaluate((el) => el === document.activeElement && el.getAttribute("aria-invalid"))).toBe("true");
    await dialog.getByLabel("Host").fill("media.home.example");
    await dialog.getByRole("button", { name: "Add rule" }).click();
    await dialog.waitFor({ state: "hidden" });
    await section().getByText("team Media").waitFor();

    await section().getByRole("button", { name: "Add a rule" }).click();
    dialog = page.getByRole("dialog", { name: "Add a forward-auth rule" });
    await dialog.getByLabel("Host").fill("*.home.example");
    await dialog.getByLabel("Bypass paths (optional)").fill("/health");
    await dialog.getByRole("button", { name: "Add rule" }).click();
    await dialog.waitFor({ state: "hidden" });
    await section().getByText("open: /health").waitFor();
    expect(await ruleHosts()).toEqual(["media.home.example", "*.home.example"]);

    // The wildcard first would let everyone into media: moved up, then back down, by keyboard too.
    await section().getByRole("button", { name: "Move *.home.example up" }).click();
    await page.waitForFunction(() => document.querySelector("#forward-auth li strong")?.textContent === "*.home.example");
    expect(await ruleHosts()).toEqual(["*.home.example", "media.home.example"]);
    // At the top its "up" is off: the focus is on the row, which says its new place; Tab reaches "down".
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    expect(await focused()).toBe("1. *.home.example");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Move *.home.example down");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#forward-auth li strong")?.textContent === "media.home.example");
    expect(await ruleHosts()).toEqual(["media.home.example", "*.home.example"]);
    const stored = await page.evaluate(async () =>
      (await (await fetch("/api/oauth/admin/forward-auth/rules")).json()).rules.map((r: { host: string }) => r.host),
    );
    expect(stored).toEqual(["media.home.example", "*.home.example"]);
    await shot(page, "forward-auth-rules");
    expect(errors).toEqual([]);
  });

  it("tests the rule: a member of the team is allowed with the identity headers, an outsider denied", async () => {
    const test = section().getByRole("region", { name: "Test this rule" });
    await test.getByLabel("Address to test").fill("https://media.home.example/library?x=1");
    await test.getByLabel("Find a person (optional)").fill("bob");
    await test.getByLabel(/^bob/).check();
    await test.getByRole("button", { name: "Test", exact: true }).click();
    const result = test.getByRole("status", { name: "Test result" });
    await result.getByText("Allowed", { exact: true }).waitFor();
    const headers = result.getByRole("table", { name: "Headers the app gets" });
    await headers.getByRole("row", { name: /Remote-User bob/ }).waitFor();
    await headers.getByRole("row", { name: /Remote-Groups Media/ }).waitFor();

    await test.getByLabel("Find a person (optional)").fill("carol");
    await test.getByLabel(/^carol/).check();
    await test.getByRole("button", { name: "Test", exact: true }).click();
    await result.getByText("(deny)").waitFor();
    expect(await result.getByRole("table").count()).toBe(0);

    // Signed out: sent to sign in; the bypass path of the wildcard rule passes.
    await test.getByLabel("Someone signed out").check();
    await test.getByRole("button", { name: "Test", exact: true }).click();
    await result.getByText("(sign_in)").waitFor();
    await test.getByLabel("Address to test").fill("https://photos.home.example/health");
    await test.getByRole("button", { name: "Test", exact: true }).click();
    await result.getByText("(bypass)").waitFor();
    expect(errors).toEqual([]);
  });

  it("writes Caddy's configuration from the catalog for an app address, pointed at this Cairn", async () => {
    await page.goto(`${app.url}/apps`);
    const card = page.locator("#new-app");
    await card.getByLabel("Search applications").fill("forward");
    await card
      .getByRole("list", { name: "Applications" })
      .getByRole("button", { name: /Caddy \(forward_auth\)/ })
      .click();
    await card.getByLabel("The app's address, as people open it").fill("https://media.home.example");
    await card.getByLabel("Where the proxy sends its requests (upstream)").fill("http://127.0.0.1:8096/jellyfin");
    await card.getByRole("button", { name: "Write the configuration" }).click();
    await card.getByText("upstream is a scheme, a host and an optional port only", { exact: false }).waitFor();
    await card.getByLabel("Where the proxy sends its requests (upstream)").fill("http://127.0.0.1:8096");
    await card.getByRole("button", { name: "Write the configuration" }).click();

    const snippet = (await card.getByRole("figure", { name: "Configuration for Caddy (forward_auth)" }).textContent()) ?? "";
    expect(snippet).toContain("media.home.example {\n");
    expect(snippet).toContain(`forward_auth ${new URL(app.url).host} {\n`);
    expect(snippet).toContain("reverse_proxy 127.0.0.1:8096\n");
    // The rule for this host exists already: the test from here answers for it.
    const test = card.getByRole("region", { name: "Test this rule" });
    expect(await test.getByLabel("Address to test").inputValue()).toBe("https://media.home.example/");
    await test.getByRole("button", { name: "Test", exact: true }).click();
    await test.getByText("(sign_in)").waitFor();
    await shot(page, "forward-auth-catalog-caddy");
    expect(errors).toEqual([]);
  });
});
