import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { openPage, signInWithPassword } from "./flows.ts";
import { startRelyingParty } from "./relying-party.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/*
 * OIDC Core section 3.1.2.1 and RFC 9470 in a real browser: an openid-client web app asks Alice,
 * already signed in to Cairn, to sign in again (`prompt=login`, `max_age`) or with a second factor
 * (`acr_values=mfa`). Cairn's sign-in page must stay up until she does, and the app must get a
 * code whose ID token carries the new sign-in's `auth_time`. Before the fix the page saw her
 * session, went on at once, and the resume sent her back to it: over a hundred navigations in
 * five seconds and never a code.
 */
describe.skipIf(browserSkipReason !== null)("OIDC Core 3.1.2.1: a real relying party asks a signed-in person to sign in again", () => {
  let browser: Browser;
  let app: TestApp;
  let rp: ReturnType<typeof startRelyingParty>;
  let alice: SignedUp;
  let page: Page;
  let errors: string[];
  const visited: string[] = [];
  /** The `auth_time` of the ID token the app received last. */
  let lastAuthTime = 0;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    rp = startRelyingParty(app.url);
    const owen = await signUp(app, "owen"); // the admin
    const registered = await registerApp(owen, {
      name: "Pebble Notes",
      redirect_uris: [{ uri: rp.redirectUri, match: "equals" }],
      scopes: ["openid", "profile", "email", "offline_access"],
    });
    rp.use({ clientId: registered.client_id, secret: registered.client_secret as string });
    alice = await signUp(app, "alice");
    ({ page, errors } = await openPage(browser));
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await signInWithPassword(page, app, "alice", PASSWORD);
    // The first sign-in to the app: consent once.
    await page.goto(`${rp.url}/login`);
    await page.getByRole("button", { name: "Approve" }).click();
    lastAuthTime = await signedInToApp();
  });
  afterAll(async () => {
    await browser?.close();
    rp?.stop();
    await app?.stop();
  });

  const claim = (name: string) => page.locator(`[data-claim="${name}"]`).textContent();

  /** Waits for the app's page after a sign-in and answers the ID token's auth_time. */
  async function signedInToApp(): Promise<number> {
    await page.waitForURL(`${rp.url}/callback?**`);
    const failure = await page.locator('[data-claim="failure"], [data-claim="error"]').count();
    if (failure > 0) throw new Error(`the app's sign-in failed: ${await page.locator("p").first().textContent()}`);
    expect(await claim("sub")).toBe(alice.user.id);
    return Number(await claim("auth_time"));
  }

  /**
   * Starts a sign-in at the app with `query` and checks that Cairn's page asks Alice to sign in
   * again and stays up: no navigation while she reads it.
   */
  async function askedToSignInAgain(query: string, says: RegExp) {
    // auth_time has whole seconds: a new sign-in must be able to show a later one.
    while (nowSeconds() <= lastAuthTime) await sleep(100);
    visited.length = 0;
    await page.goto(`${rp.url}/login?${query}`);
    await page.getByRole("heading", { name: "Confirm it’s you" }).waitFor();
    await page.getByText(says).waitFor();
    const settled = visited.length;
    await sleep(1500);
    expect(visited.length).toBe(settled);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(visited.length).toBeLessThanOrEqual(4); // app, authorize, sign-in page (and a redirect or two at most)
    // Her username is filled in; she gives her password.
    expect(await page.getByLabel("Username or email").inputValue()).toBe("alice");
  }

  async function givePassword(): Promise<number> {
    const started = nowSeconds();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    return started;
  }

  /** The app got a code for this new sign-in: a later auth_time, at or after the password was given. */
  async function freshSignInReachedApp(started: number) {
    const authTime = await signedInToApp();
    expect(authTime).toBeGreaterThan(lastAuthTime);
    expect(authTime).toBeGreaterThanOrEqual(started);
    lastAuthTime = authTime;
  }

  it("prompt=login: the sign-in page stays up, and the app gets a code with a fresh auth_time", async () => {
    await askedToSignInAgain("prompt=login", /“Pebble Notes” asks you to sign in again/);
    await freshSignInReachedApp(await givePassword());
    expect(await claim("acr")).toBe("pwd");
  });

  it("max_age=0: the same, every time", async () => {
    await askedToSignInAgain("max_age=0", /asks you to sign in again/);
    await freshSignInReachedApp(await givePassword());
  });

  it("a max_age not yet elapsed goes straight back to the app with the same sign-in", async () => {
    visited.length = 0;
    await page.goto(`${rp.url}/login?max_age=3600`);
    expect(await signedInToApp()).toBe(lastAuthTime);
    expect(visited.filter((url) => url.startsWith(`${app.url}/login`))).toEqual([]);
  });

  it("an elapsed max_age: the sign-in page stays up, and openid-client's own max_age check passes", async () => {
    while (nowSeconds() - lastAuthTime <= 1) await sleep(100);
    await askedToSignInAgain("max_age=1", /asks you to sign in again/);
    await freshSignInReachedApp(await givePassword());
  });

  it("acr_values=mfa on a password-only session: sign in again with the new second factor, and the ID token says acr mfa", async () => {
    // Alice's session was made with her password alone; she sets up an authenticator now.
    const started = await alice.browser.json("POST", "/api/oauth/me/totp");
    const confirmed = await alice.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(started.data.secret, Date.now()) });
    expect(confirmed.status).toBe(200);

    await askedToSignInAgain("acr_values=mfa", /“Pebble Notes” needs two-step verification/);
    const signInStarted = await givePassword();
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await page.getByLabel("Authentication code").fill(await totpCode(started.data.secret, Date.now(), 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await freshSignInReachedApp(signInStarted);
    expect(await claim("acr")).toBe("mfa");
  });

  it("left no error on any page", () => {
    expect(errors).toEqual([]);
  });
});
