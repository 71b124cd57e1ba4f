import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type Registered, registerIntegration } from "../helpers/integrations.ts";
import { freePort } from "../helpers/temp.ts";
import { allowAtCairn, recordNavigations, signInAtCairn, userinfo } from "./cairn-pages.ts";
import { type NodeApp, startNodeApp } from "./node-app.ts";

if (browserSkipReason) console.warn(`skipping the express-openid-connect tests: ${browserSkipReason}`);

const APP_NAME = "express-openid-connect (Node.js)";

/*
 * An Express app under Node whose only sign-in setup is the catalog's snippet as Cairn filled it in
 * (express-openid-connect 2, on openid-client 4). Alice signs in through Cairn in Chromium, the app
 * refreshes her access token, and its /logout (idpLogout) ends her Cairn session too.
 */
describe.skipIf(browserSkipReason !== null)("express-openid-connect configured from the catalog", () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let registered: Registered;
  let rp: NodeApp;
  let page: Page;
  let visited: string[];

  beforeAll(async () => {
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Liddell" });
    const port = freePort();
    registered = await registerIntegration(alice, "express-openid-connect", { base_url: `http://127.0.0.1:${port}` });
    rp = await startNodeApp("express-openid-connect.app.cjs", port, { RP_SNIPPET: registered.text });
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    visited = recordNavigations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await app?.stop();
  });

  const cairnSession = async () => (await page.context().request.get(`${app.url}/api/auth/session`)).status();

  it("sends a signed-out visitor through Cairn's sign-in and consent; req.oidc.user holds her claims", async () => {
    await page.goto(`${rp.url}/`);
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, APP_NAME);
    await page.waitForURL(`${rp.url}/`);
    const user = JSON.parse((await page.locator("#user").textContent()) ?? "");
    expect(user).toMatchObject({ sub: alice.user.id, preferred_username: "alice", name: "Alice Liddell", email: "alice@example.com" });
    expect(visited).toContainEqual(expect.stringMatching(new RegExp(`^${rp.url}/callback\\?code=`)));
  });

  it("refreshes with req.oidc.accessToken.refresh(); the new access token works at Cairn's userinfo", async () => {
    const res = await page.context().request.get(`${rp.url}/refresh`);
    expect(res.status()).toBe(200);
    const { before, after, userinfo: fetched } = await res.json();
    expect(after).not.toBe(before);
    expect(fetched.sub).toBe(alice.user.id); // req.oidc.fetchUserInfo() with the new token
    const direct = await userinfo(app, after);
    expect(direct.status).toBe(200);
    expect(direct.body.preferred_username).toBe("alice");
  });

  it("logs out at /logout through Cairn's end_session (no confirmation: it sends the ID token) and back to baseURL", async () => {
    expect(await cairnSession()).toBe(200);
    visited.length = 0;
    await page.goto(`${rp.url}/logout`);
    // Back at baseURL, which requires a session: the app sends her to Cairn, which now asks for a password.
    await page.waitForURL((url) => url.origin === app.url && url.pathname === "/login");
    const ended = visited.findIndex((url) => url.startsWith(`${app.url}/api/oauth/end_session?`));
    expect(new URL(visited[ended] as string).searchParams.get("id_token_hint")).toBeString();
    expect(visited[ended + 1]).toBe(`${rp.url}/`);
    expect(await cairnSession()).toBe(401);
  });

  it("fails the sign-in when the app is registered for ML-DSA-65 ID tokens, which openid-client 4 cannot verify", async () => {
    const patched = await alice.browser.json("PATCH", `/api/oauth/me/clients/${registered.clientId}`, { id_token_signed_response_alg: "ML-DSA-65" });
    expect(patched.status).toBe(200);
    await page.goto(`${rp.url}/`);
    await signInAtCairn(page, app, "alice");
    await page.waitForURL(new RegExp(`^${rp.url}/callback\\?`));
    expect(await page.locator("#error").textContent()).toBe("unexpected JWT alg received, expected RS256, got: ML-DSA-65");
  });
});

/*
 * The same library, pointed at a client that registered itself (RFC 7591) and, like most RPs, did
 * not name id_token_signed_response_alg: OpenID Connect Dynamic Client Registration 1.0 section 2
 * makes that RS256, which express-openid-connect verifies by default. The app's configuration is
 * the library's minimum, filled with what the registration answered.
 */
describe.skipIf(browserSkipReason !== null)("express-openid-connect with a dynamically registered client", () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let rp: NodeApp;
  let registration: Record<string, unknown>;

  beforeAll(async () => {
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Liddell" });
    const port = freePort();
    const res = await fetch(`${app.url}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${alice.token}` },
      body: JSON.stringify({
        client_name: "Self-registered Express app",
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        token_endpoint_auth_method: "client_secret_basic",
        scope: "openid profile email",
      }),
    });
    expect(res.status).toBe(201);
    registration = await res.json();
    const settings = {
      issuerBaseURL: app.url,
      baseURL: `http://127.0.0.1:${port}`,
      clientID: registration.client_id,
      clientSecret: registration.client_secret,
      secret: crypto.randomUUID(),
      authorizationParams: { response_type: "code", scope: "openid profile email" },
    };
    const snippet = `const { auth } = require("express-openid-connect");\napp.use(auth(${JSON.stringify(settings)}));`;
    rp = await startNodeApp("express-openid-connect.app.cjs", port, { RP_SNIPPET: snippet });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.stop();
    await app?.stop();
  });

  it("is told RS256 in the registration answer, and signs Alice in with the library's defaults", async () => {
    expect(registration.id_token_signed_response_alg).toBe("RS256");
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${rp.url}/`);
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, "Self-registered Express app");
    // Back at the app: on its callback's error page if it could not verify the ID token, else at /.
    await page.waitForURL((url) => url.origin === rp.url);
    expect(await page.locator("#error").allTextContents()).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/");
    const user = JSON.parse((await page.locator("#user").textContent()) ?? "");
    expect(user).toMatchObject({ sub: alice.user.id, preferred_username: "alice", email: "alice@example.com" });
  });
});
