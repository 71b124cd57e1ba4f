import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { sessionOf } from "../e2e/flows.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type Registered, registerIntegration } from "../helpers/integrations.ts";
import { freePort } from "../helpers/temp.ts";
import { type Apache, apacheSkipReason, openidcVersion, startApache } from "./apache.ts";
import { allowAtCairn, recordNavigations, signInAtCairn, userinfo } from "./cairn-pages.ts";

const skipReason = apacheSkipReason ?? browserSkipReason;
if (skipReason) console.warn(`skipping the mod_auth_openidc tests: ${skipReason}`);

const APP_NAME = "Apache httpd (mod_auth_openidc)";

/** What mod_auth_openidc handed the protected page. */
const shown = (page: Page, name: string) =>
  page
    .locator(`[data-var="${name}"]`)
    .textContent()
    .then((text) => text ?? "");

/*
 * Apache configured with nothing but the catalog entry's snippet (wrapped in a minimal httpd.conf)
 * protects a page; Alice signs in to it through Cairn in Chromium, the module refreshes her access
 * token, and its logout ends her Cairn session too.
 */
describe.skipIf(skipReason !== null)(`Apache httpd with mod_auth_openidc ${apacheSkipReason ? "" : openidcVersion()}`, () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let registered: Registered;
  let apache: Apache;
  let page: Page;

  beforeAll(async () => {
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Liddell" });
    const port = freePort();
    registered = await registerIntegration(alice, "apache-mod-auth-openidc", { base_url: `http://127.0.0.1:${port}` });
    apache = await startApache(registered.text, port);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await apache?.stop();
    await app?.stop();
  });

  it("sends a signed-out visitor through Cairn's sign-in and consent, then hands the site her identity", async () => {
    await page.goto(`${apache.url}/`);
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, APP_NAME);
    await page.waitForURL(`${apache.url}/`);
    await page.getByRole("heading", { name: "Protected by mod_auth_openidc" }).waitFor();

    // OIDCRemoteUserClaim preferred_username
    expect(await shown(page, "REMOTE_USER")).toBe("alice");
    expect(await shown(page, "OIDC_CLAIM_sub")).toBe(alice.user.id);
    expect(await shown(page, "OIDC_CLAIM_preferred_username")).toBe("alice");
    expect(await shown(page, "OIDC_CLAIM_email")).toBe("alice@example.com");
    expect(await shown(page, "OIDC_CLAIM_name")).toBe("Alice Liddell");
    const info = await userinfo(app, await shown(page, "OIDC_access_token"));
    expect(info.status).toBe(200);
    expect(info.body.sub).toBe(alice.user.id);
  }, 30_000);

  it("refreshes the access token through the redirect URI's refresh hook (offline_access)", async () => {
    const before = await shown(page, "OIDC_access_token");
    const refresh = new URL(registered.values.redirect_uri as string);
    refresh.searchParams.set("refresh", `${apache.url}/`);
    refresh.searchParams.set("access_token", before);
    await page.goto(refresh.href);
    // On failure the module still returns there, with `error_code` added.
    await page.waitForURL((url) => url.origin === apache.url && url.pathname === "/");
    expect(page.url()).toBe(`${apache.url}/`);

    const after = await shown(page, "OIDC_access_token");
    expect(after).not.toBe(before);
    expect(after).not.toBe("(none)");
    expect((await userinfo(app, after)).body.sub).toBe(alice.user.id);
  }, 30_000);

  it("signs out of the site and of Cairn (ID token hint, no confirmation) and lands back on the site", async () => {
    const visited = recordNavigations(page);
    // As the entry's notes say, unencoded.
    await page.goto(`${registered.values.redirect_uri}?logout=${registered.values.post_logout_redirect_uri}`);

    // Back on the site, whose every page is protected: it sends her to Cairn, which asks who she is.
    await page.waitForURL((url) => url.origin === app.url && url.pathname === "/login");
    expect((await sessionOf(page)).status).toBe(401);
    const endSession = visited.findIndex((u) => u.startsWith(registered.values.end_session_endpoint as string));
    expect(endSession).toBeGreaterThan(-1);
    expect(new URL(visited[endSession] as string).searchParams.get("id_token_hint")).toBeTruthy();
    expect(visited[endSession + 1]).toBe(`${apache.url}/`);
    expect(visited.some((u) => new URL(u).pathname === "/logout")).toBe(false);

    // Signing in again needs no consent: the grant outlives the session.
    await signInAtCairn(page, app, "alice");
    await page.waitForURL(`${apache.url}/`);
    expect(await shown(page, "REMOTE_USER")).toBe("alice");
  }, 30_000);
});
