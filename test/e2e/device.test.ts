import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { openPage, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

const GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/*
 * A TV app (a public client) starts the device flow; Alice enters its code on /device with the
 * keyboard, sees the app and its scopes in words, and approves; a second request she opens by its
 * verification_uri_complete link and denies.
 */
describe.skipIf(browserSkipReason !== null)("the device page in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let clientId = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    const owner = await signUp(app, "owen");
    await signUp(app, "alice");
    clientId = (await registerApp(owner, { name: "Living-room TV", public: true, grant_types: [GRANT] })).client_id;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const startDevice = async () => {
    const res = await fetch(`${app.url}/api/oauth/device_authorization`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: clientId, scope: "openid profile" }),
    });
    return (await res.json()) as { device_code: string; user_code: string; verification_uri_complete: string };
  };
  const poll = async (deviceCode: string) => {
    const res = await fetch(`${app.url}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: GRANT, device_code: deviceCode, client_id: clientId }),
    });
    return { status: res.status, body: (await res.json()) as { error?: string; access_token?: string } };
  };

  it("takes a typed code, shows the app and its scopes, and approves: the device gets its tokens", async () => {
    const started = await startDevice();
    const { page, errors } = await openPage(browser);
    await signInWithPassword(page, app, "alice", PASSWORD);
    await page.goto(`${app.url}/device`);
    await page.getByRole("heading", { name: "Connect a device" }).waitFor();
    // Typed the way people do: lower case, without the dash, then Enter.
    await page.getByLabel("Code").fill(started.user_code.replace("-", "").toLowerCase());
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Allow Living-room TV on your device?" }).waitFor();
    expect(await page.getByText(started.user_code).count()).toBe(1);
    const scopes = page.getByRole("list", { name: "What the app will be able to do" });
    expect(await scopes.getByRole("listitem").count()).toBe(2);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("status").filter({ hasText: "Living-room TV is signed in as alice" }).waitFor();
    const answer = await poll(started.device_code);
    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toBeString();
    expect(errors).toEqual([]);
  });

  it("opens the code from the device's link, and a denial reaches the device", async () => {
    const started = await startDevice();
    const { page } = await openPage(browser);
    await signInWithPassword(page, app, "alice", PASSWORD);
    await page.goto(started.verification_uri_complete);
    await page.getByRole("heading", { name: "Allow Living-room TV on your device?" }).waitFor();
    await page.getByRole("button", { name: "Deny" }).click();
    await page.getByRole("heading", { name: "Request denied" }).waitFor();
    expect((await poll(started.device_code)).body.error).toBe("access_denied");
  });

  it("says so when a code is wrong, and sends a signed-out visitor to sign in first", async () => {
    const { page } = await openPage(browser);
    await page.goto(`${app.url}/device?user_code=BBBB-BBBB`);
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByLabel("Username or email").fill("alice");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/device");
    await page.getByText("No waiting request has this code").waitFor();
  });
});
