import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type Registered, registerIntegration } from "../helpers/integrations.ts";
import { freePort } from "../helpers/temp.ts";
import { allowAtCairn, recordNavigations, signInAtCairn, userinfo } from "./cairn-pages.ts";
import { startSpa } from "./spa-server.ts";

if (browserSkipReason) console.warn(`skipping the oidc-client-ts tests: ${browserSkipReason}`);

const APP_NAME = "oidc-client-ts (browser app)";

/*
 * A static page on its own origin whose UserManager is the catalog's userManager.ts as Cairn filled
 * it in: a public client with PKCE. Chromium signs Alice in, refreshes with the refresh token and
 * signs out; every call to Cairn's token and userinfo endpoints is cross-origin from the page.
 */
describe.skipIf(browserSkipReason !== null)("oidc-client-ts configured from the catalog", () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let registered: Registered;
  let spa: ReturnType<typeof startSpa>;
  let page: Page;
  let errors: string[];
  let visited: string[];

  beforeAll(async () => {
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Liddell" });
    const port = freePort();
    registered = await registerIntegration(alice, "oidc-client-ts", { base_url: `http://127.0.0.1:${port}` });
    spa = startSpa(port, registered.text);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    visited = recordNavigations(page);
  });
  afterAll(async () => {
    await browser?.close();
    spa?.stop();
    await app?.stop();
  });

  const cairnSession = async () => (await page.context().request.get(`${app.url}/api/auth/session`)).status();
  const claim = (name: string) => page.locator(`[data-claim="${name}"]`).textContent();
  const accessToken = () => page.evaluate(async () => (await (window as any).userManager.getUser()).access_token as string);
  const heading = (name: string) => page.getByRole("heading", { name, exact: true }).waitFor();

  it("registers a public client: no secret, and none in the snippet", () => {
    expect(registered.secret).toBeUndefined();
    expect(registered.text).not.toContain("client_secret");
  });

  it("signs in with signinRedirect through Cairn; signinRedirectCallback shows her profile", async () => {
    await page.goto(`${spa.url}/`);
    await heading("Signed out");
    await page.getByRole("button", { name: "Sign in" }).click();
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, APP_NAME);
    await page.waitForURL(`${spa.url}/`);
    await heading("Signed in");
    expect(await claim("sub")).toBe(alice.user.id);
    expect(await claim("preferred_username")).toBe("alice");
    expect(await claim("name")).toBe("Alice Liddell");
    expect(await claim("email")).toBe("alice@example.com");
    const authorize = new URL(visited.find((url) => url.startsWith(`${app.url}/api/oauth/authorize?`)) as string);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  });

  it("refreshes with signinSilent (the refresh token); the new access token works at Cairn's userinfo", async () => {
    const before = await accessToken();
    await page.getByRole("button", { name: "Refresh" }).click();
    await heading("Refreshed");
    expect(await page.locator("#userinfo").textContent()).toBe("200 alice"); // fetched by the page, cross-origin
    const after = await accessToken();
    expect(after).not.toBe(before);
    expect((await userinfo(app, after)).body.sub).toBe(alice.user.id);
  });

  it("signs out with signoutRedirect: Cairn's end_session ends her session and returns to the app", async () => {
    expect(await cairnSession()).toBe(200);
    visited.length = 0;
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading("Signed out");
    const ended = visited.findIndex((url) => url.startsWith(`${app.url}/api/oauth/end_session?`));
    expect(new URL(visited[ended] as string).searchParams.get("id_token_hint")).toBeString();
    expect(visited[ended + 1]).toBe(`${spa.url}/`);
    expect(await cairnSession()).toBe(401);
    expect(errors).toEqual([]);
  });
});
