import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { sessionOf } from "../e2e/flows.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type Registered, registerIntegration } from "../helpers/integrations.ts";
import { freePort } from "../helpers/temp.ts";
import { type AuthlibApp, authlibSkipReason, authlibVersion, startAuthlibApp } from "./authlib.ts";
import { allowAtCairn, recordNavigations, signInAtCairn, userinfo } from "./cairn-pages.ts";

const skipReason = authlibSkipReason ?? browserSkipReason;
if (skipReason) console.warn(`skipping the Authlib tests: ${skipReason}`);

const APP_NAME = "Python Authlib (Flask, Django, Starlette)";

const claim = (page: Page, name: string) =>
  page
    .locator(`[data-claim="${name}"]`)
    .textContent()
    .then((text) => text ?? "");

/** Registers a Flask app from the catalog entry on a free port; `text` may be changed before it starts. */
async function startFromCatalog(user: SignedUp, edit: (text: string, values: Record<string, string>) => string = (text) => text) {
  const port = freePort();
  const registered = await registerIntegration(user, "python-authlib", { base_url: `http://127.0.0.1:${port}` });
  const rp = await startAuthlibApp(edit(registered.text, registered.values), registered.values, port);
  return { registered, rp };
}

/*
 * A Flask app running the catalog entry's snippet signs Alice in through Cairn in Chromium,
 * refreshes her access token and sends her to Cairn's end_session as the entry's notes say.
 */
describe.skipIf(skipReason !== null)(`Python Authlib ${authlibSkipReason ? "" : authlibVersion()} with Flask`, () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let registered: Registered;
  let rp: AuthlibApp;
  let page: Page;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Liddell" });
    ({ registered, rp } = await startFromCatalog(alice));
    stops.push(rp.stop);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    for (const stop of stops) await stop();
    await app?.stop();
  });

  it("sends a signed-out visitor through Cairn's sign-in and consent; the session holds the verified ID token's claims", async () => {
    await page.goto(`${rp.url}/`);
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, APP_NAME);
    await page.waitForURL(`${rp.url}/`);
    await page.getByRole("heading", { name: "Signed in with Authlib" }).waitFor();

    expect(await claim(page, "sub")).toBe(alice.user.id);
    expect(await claim(page, "preferred_username")).toBe("alice");
    expect(await claim(page, "email")).toBe("alice@example.com");
    expect(await claim(page, "name")).toBe("Alice Liddell");
    expect(rp.stderr()).not.toContain("Traceback");
  }, 30_000);

  it("refreshes with the refresh_token grant (offline_access); the new access token works at Cairn's userinfo", async () => {
    const res = await page.context().request.get(`${rp.url}/refresh`);
    const { error, before, after, rotated } = await res.json();
    expect(error).toBeUndefined();
    expect(res.status()).toBe(200);
    expect(after).not.toBe(before);
    expect(rotated).toBe(true);
    const info = await userinfo(app, after);
    expect(info.status).toBe(200);
    expect(info.body.preferred_username).toBe("alice");
  }, 30_000);

  it("logs out through Cairn's end_session with client_id (Cairn asks first), ending both sessions and landing back on the app", async () => {
    const visited = recordNavigations(page);
    await page.goto(`${rp.url}/logout`);
    await page.getByRole("heading", { name: "Sign out?" }).waitFor();
    await page.locator("section.card").getByRole("button", { name: "Sign out" }).click();

    // Back on the app's "/", which sends a signed-out visitor to sign in: Cairn asks who she is.
    await page.waitForURL((url) => url.origin === app.url && url.pathname === "/login");
    expect((await sessionOf(page)).status).toBe(401);
    expect(visited).toContain(registered.values.post_logout_redirect_uri as string);
  }, 30_000);

  it("fails the sign-in when pointed at the full JWKS: Authlib 1.2 stops at the ML-DSA key (KeyError 'AKP')", async () => {
    const discovered: string = (await (await fetch(registered.values.discovery_url as string)).json()).jwks_uri;
    expect(discovered).toBe(`${app.url}/.well-known/jwks.json`);
    const full = await startFromCatalog(alice, (text, values) => text.replace(values.jwks_uri as string, discovered));
    stops.push(full.rp.stop);
    expect(full.registered.text).toContain(`jwks_uri="${app.url}/api/oauth/jwks/classic"`);

    await page.goto(`${full.rp.url}/login`);
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, APP_NAME);
    await page.waitForURL((url) => url.origin === full.rp.url && url.pathname === "/auth/callback");
    await page.getByText("Internal Server Error").first().waitFor();
    expect(full.rp.stderr()).toContain("KeyError: 'AKP'");
  }, 30_000);
});
