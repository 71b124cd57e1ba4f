import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type Registered, registerIntegration } from "../helpers/integrations.ts";
import { freePort } from "../helpers/temp.ts";
import { allowAtCairn, recordNavigations, signInAtCairn } from "./cairn-pages.ts";
import { type NodeApp, startNodeApp } from "./node-app.ts";

if (browserSkipReason) console.warn(`skipping the Auth.js tests: ${browserSkipReason}`);

const APP_NAME = "Auth.js (Next.js, SvelteKit, Express)";

/*
 * An Express app under Node signing in with Auth.js (@auth/express), configured by the catalog's
 * auth.ts as Cairn filled it in: an ML-DSA-65 ID token, taken as discovery advertises it. Alice
 * signs in through Cairn in Chromium, then signs out of the app and, as the entry's notes say, of Cairn.
 */
describe.skipIf(browserSkipReason !== null)("Auth.js configured from the catalog", () => {
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
    registered = await registerIntegration(alice, "authjs", { base_url: `http://127.0.0.1:${port}` });
    const notes: string = (await alice.browser.json("GET", `/api/oauth/me/clients/${registered.clientId}/setup`)).data.notes;
    const logoutUrl = /callbackUrl: "([^"]+)"/.exec(notes)?.[1] ?? "";
    rp = await startNodeApp("authjs.app.mjs", port, {
      RP_SNIPPET: registered.text,
      AUTH_SECRET: /AUTH_SECRET=(\S+)/.exec(registered.text)?.[1] ?? "",
      CAIRN_LOGOUT_URL: logoutUrl,
      // Auth.js builds its callback URL from the Host header only when told to trust it (or AUTH_URL is set).
      AUTH_TRUST_HOST: "true",
    });
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
  const shown = (name: string) => page.locator(`[data-user="${name}"]`).textContent();

  it("signs in from Auth.js's sign-in page through Cairn; the session holds her claims from an ML-DSA-65 ID token", async () => {
    await page.goto(`${rp.url}/`);
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign in with Cairn" }).click();
    await signInAtCairn(page, app, "alice");
    await allowAtCairn(page, APP_NAME);
    await page.waitForURL(`${rp.url}/`);
    await page.getByRole("heading", { name: "Signed in with Cairn" }).waitFor();
    expect(await shown("sub")).toBe(alice.user.id);
    expect(await shown("preferred_username")).toBe("alice");
    expect(await shown("name")).toBe("Alice Liddell");
    expect(await shown("email")).toBe("alice@example.com");
    expect(await shown("id_token_alg")).toBe("ML-DSA-65"); // as registered; oauth4webapi takes what discovery lists
    expect(visited).toContainEqual(expect.stringMatching(new RegExp(`^${rp.url}/api/auth/callback/cairn\\?code=`)));
  });

  it("signs out of Auth.js, then of Cairn at end_session (confirmed there: no ID token hint), and lands back on the app", async () => {
    expect(await cairnSession()).toBe(200);
    await page.getByRole("link", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.href.startsWith(`${rp.url}/api/auth/signout`));
    await page.getByRole("button", { name: "Sign out" }).click();

    await page.waitForURL((url) => url.origin === app.url && url.pathname === "/logout");
    await page.locator("section.card").getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${rp.url}/`);
    await page.getByRole("heading", { name: "Not signed in" }).waitFor();
    expect(await cairnSession()).toBe(401);
  });
});
