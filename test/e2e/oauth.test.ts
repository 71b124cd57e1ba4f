import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { REDIRECT, registerApp } from "../helpers/oauth.ts";
import { openPage, shot, signInWithPassword } from "./flows.ts";
import { startRelyingParty } from "./relying-party.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/*
 * Cairn on http://localhost and a small openid-client web app on another localhost port. Owen
 * (the admin) registers the app through "My apps"; Alice, in a browser of her own, signs in to
 * it through Cairn's sign-in and consent pages, then takes its access back from her account.
 */
describe.skipIf(browserSkipReason !== null)("OAuth pages and a relying party in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let rp: ReturnType<typeof startRelyingParty>;
  let owen: SignedUp;
  let alice: SignedUp;
  let owner: { page: Page; errors: string[] };
  let user: { page: Page; errors: string[]; visited: string[] };
  let clientId = "";
  let secret = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    rp = startRelyingParty(app.url);
    owen = await signUp(app, "owen", { name: "Owen Owner" }); // the first account: the admin
    alice = await signUp(app, "alice", { name: "Alice Liddell" });
    owner = await openPage(browser);
    await signInWithPassword(owner.page, app, "owen", PASSWORD);
    const opened = await openPage(browser);
    const visited: string[] = [];
    opened.page.on("framenavigated", (frame) => {
      if (frame === opened.page.mainFrame()) visited.push(frame.url());
    });
    user = { ...opened, visited };
  });
  afterAll(async () => {
    await browser?.close();
    rp?.stop();
    await app?.stop();
  });

  const claim = (page: Page, name: string) => page.locator(`[data-claim="${name}"]`).textContent();
  /** Client authentication at the introspection endpoint: 200 for the app's secret, 401 for any other. */
  const introspect = (s: string) =>
    app.client().json("POST", "/api/oauth/introspect", "token=x", {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${clientId}:${s}`)}`,
    });

  it("registers an app on My apps, shows its ID and secret once, and warns about a catch-all redirect pattern", async () => {
    const { page } = owner;
    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Apps" }).click();
    await page.getByRole("heading", { name: "My apps" }).waitFor();
    await page.getByText("No apps yet").waitFor();

    // The catalog comes first; every setting by hand is one click away.
    await page.getByRole("button", { name: "Register with custom settings" }).click();
    // The page refuses what it can check itself, beside the field.
    await page.getByRole("button", { name: "Register app" }).click();
    await page.getByText("Name the app: people see this name").waitFor();

    await page.getByLabel("App name").fill("Pebble Notes");
    await page.getByLabel("Description (optional)").fill("Notes that sign in with Cairn.");
    await page.getByLabel("Redirect URI 1", { exact: true }).fill(rp.redirectUri);
    expect(await page.getByLabel("Match type for redirect URI 1").inputValue()).toBe("equals");
    expect(await page.getByLabel("openid", { exact: true }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Register app" }).click();

    const credentials = page.getByRole("region", { name: "New app credentials" });
    await credentials.waitFor();
    clientId = await credentials.getByRole("textbox", { name: "Client ID" }).inputValue();
    secret = await credentials.getByRole("textbox", { name: "Client secret" }).inputValue();
    expect(clientId.length).toBeGreaterThan(10);
    expect(secret.length).toBeGreaterThan(30);
    await page.getByRole("list", { name: "Your apps" }).getByRole("link", { name: "Pebble Notes", exact: true }).waitFor();

    expect((await introspect(secret)).status).toBe(200); // the secret on the page is the app's real one

    // A regex or wildcard that matches any URL is flagged as the user types it; a narrow one is not.
    await page.getByLabel("App name").fill("Catch-all demo");
    await page.getByRole("button", { name: "Add redirect URI" }).click();
    await page.getByLabel("Match type for redirect URI 2").selectOption("regex");
    await page.getByLabel("Redirect URI 2", { exact: true }).fill(".*");
    const warning = page.getByText("This pattern matches any URL.");
    await warning.waitFor();
    await shot(page, "oauth-apps");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "oauth-apps-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByLabel("Redirect URI 2", { exact: true }).fill("https://(www|app)\\.example\\.com/callback");
    await warning.waitFor({ state: "detached" });
    await page.getByLabel("Match type for redirect URI 2").selectOption("wildcard");
    await page.getByLabel("Redirect URI 2", { exact: true }).fill("https://*/*");
    await warning.waitFor();
    // The server judges patterns (RE2); its refusal lands under the redirect URIs.
    await page.getByLabel("Match type for redirect URI 2").selectOption("regex");
    await page.getByLabel("Redirect URI 2", { exact: true }).fill("https://(unclosed");
    await page.getByRole("button", { name: "Register app" }).click();
    await page
      .getByRole("group", { name: "Redirect URIs" })
      .getByText(/Catch-all demo's regular expression “https:\/\/\(unclosed” is not valid/)
      .waitFor();
    await page.getByRole("button", { name: "Remove redirect URI 2" }).click();
    await warning.waitFor({ state: "detached" });

    const apps = (await owen.bearer("GET", "/api/oauth/me/clients")).data.clients;
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({
      client_id: clientId,
      name: "Pebble Notes",
      public: false,
      redirect_uris: [{ uri: rp.redirectUri, match: "equals" }],
      scopes: ["openid", "profile", "email", "offline_access"],
    });
    rp.use({ clientId, secret });
    expect(owner.errors).toEqual([]);
  });

  it("signs a signed-out user in to the app through Cairn's sign-in and consent pages, then skips consent the second time", async () => {
    const { page } = user;
    await page.goto(`${rp.url}/login`);
    await page.waitForURL(/\/login\?return_to=/);
    await page.getByLabel("Username or email").fill("alice");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.waitForURL(/\/consent\?interaction=/);
    await page.getByRole("heading", { name: "Allow Pebble Notes to use your account?" }).waitFor();
    // Owen registered it as the site's admin: verified from the start (issue 42).
    await page.getByText("Verified app", { exact: true }).waitFor();
    expect(await page.getByText("Unverified app.").count()).toBe(0);
    const scopes = page.getByRole("list", { name: "What the app will be able to do" });
    expect((await scopes.getByRole("listitem").allTextContents()).map((t) => t.trim())).toEqual([
      "Know who you are when you sign in to it openid",
      "See your name, username and profile picture profile",
      "See your email address and whether it is verified email",
      "Stay connected when you are not using it, until you revoke its access offline_access",
    ]);
    await shot(page, "oauth-consent");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "oauth-consent-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("button", { name: "Approve" }).click();

    await page.waitForURL(`${rp.url}/callback?**`);
    await page.getByRole("heading", { name: "Signed in to the test app" }).waitFor();
    expect(await claim(page, "sub")).toBe(alice.user.id);
    expect(await claim(page, "preferred_username")).toBe("alice");
    expect(await claim(page, "email")).toBe("alice@example.com");
    expect(await claim(page, "acr")).toBe("pwd");

    // Signed in and consent remembered: the app gets its answer without a page of Cairn's in between.
    user.visited.length = 0;
    await page.goto(`${rp.url}/login`);
    await page.waitForURL(`${rp.url}/callback?**`);
    expect(await claim(page, "sub")).toBe(alice.user.id);
    expect(user.visited.filter((u) => u.includes("/consent") || u.includes("/login?"))).toEqual([]);
  });

  it("shows the admin's verified mark, and a denial returns to the app with access_denied", async () => {
    // Without the mark, people are warned; the admin sets it again on the app's page.
    await owner.page.goto(`${app.url}/apps/${clientId}`);
    await owner.page.getByRole("button", { name: "Remove verified mark" }).click();
    await owner.page.getByRole("button", { name: "Mark as verified" }).waitFor();
    const { page } = user;
    await page.goto(`${rp.url}/login?prompt=consent`);
    await page.waitForURL(/\/consent\?interaction=/);
    await page.getByText("Unverified app.").waitFor();

    await owner.page.getByRole("button", { name: "Mark as verified" }).click();
    await owner.page.getByRole("button", { name: "Remove verified mark" }).waitFor();
    await page.reload();
    await page.getByText("Verified app", { exact: true }).waitFor();
    expect(await page.getByText("Unverified app.").count()).toBe(0);
    const consentUrl = page.url();
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(`${rp.url}/callback?**`);
    expect(await claim(page, "error")).toBe("access_denied");
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");

    // The request was answered: opening it again shows that it is over.
    await page.goto(consentUrl);
    await page.getByRole("heading", { name: "This sign-in request has expired" }).waitFor();
  });

  it("lists the app under Authorized apps; revoking it stops the app's access token at once", async () => {
    const token = rp.accessToken() as string;
    const userinfo = () => app.client().json("GET", "/api/oauth/userinfo", undefined, { authorization: `Bearer ${token}` });
    expect((await userinfo()).status).toBe(200);

    const { page } = user;
    await page.goto(`${app.url}/account#authorized-apps`);
    const list = page.getByRole("list", { name: "Authorized apps" });
    await list.getByText("Pebble Notes").waitFor();
    await list.getByText("Verified", { exact: true }).waitFor();
    const scopes = await page.getByRole("list", { name: "Scopes of Pebble Notes" }).getByRole("listitem").allTextContents();
    expect(scopes.map((s) => s.trim()).sort()).toEqual(["email", "offline_access", "openid", "profile"]);
    await page.locator("#authorized-apps").scrollIntoViewIfNeeded();
    await page.locator("#authorized-apps").screenshot({ path: "/tmp/cairn-oauth-account.png" });

    await page.getByRole("button", { name: "Revoke Pebble Notes" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke access" }).click();
    await page.getByText("No apps have access to your account.").waitFor();
    expect((await userinfo()).status).toBe(401);
    expect(user.errors).toEqual([]);
  });

  it("edits the app, rotates its secret (shown once, the old one stops) and deletes it", async () => {
    const { page } = owner;
    await page.goto(`${app.url}/apps/${clientId}`);
    await page.getByRole("heading", { name: "Pebble Notes", level: 1 }).waitFor();
    await page.getByLabel("Description (optional)").fill("Shared notes.");
    await page.getByLabel("ID token algorithm").selectOption("RS256");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("App saved.").waitFor();
    expect((await page.getByText("Shared notes.").count()) > 0).toBe(true);

    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
    const fresh = await page.getByRole("textbox", { name: "New client secret" }).inputValue();
    expect(fresh).not.toBe(secret);
    expect((await introspect(secret)).status).toBe(401);
    expect((await introspect(fresh)).status).toBe(200);
    await shot(page, "oauth-app-settings");
    await page.getByRole("button", { name: "Done" }).click();
    // Gone once the dialog closes (waited for: the page re-renders after the click).
    await page.getByRole("textbox", { name: "New client secret" }).waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Delete app" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete app" }).click();
    await page.waitForURL(`${app.url}/apps`);
    await page.getByText("No apps yet").waitFor();
    expect((await introspect(fresh)).status).toBe(401);
    expect(owner.errors).toEqual([]);
  });

  it("asks for one team when the app wants single-team scopes, and for the typed phrase for site scopes", async () => {
    const team = (await owen.bearer("POST", "/api/oauth/me/teams", { name: "Household" })).data.team;
    // Alice's app (not the admin's): it starts unverified, for the admin to mark below.
    const registered = await registerApp(alice, { name: "Team Tool", scopes: ["openid", "team:read", "site:user:read"] });
    const { page } = owner;
    // The app's own site is not running: the browser's arrival there is answered here.
    await page.route(`${REDIRECT}**`, (route) => route.fulfill({ contentType: "text/html", body: "<h1>Back at the app</h1>" }));
    const authorize = (scope: string) =>
      page.goto(
        `${app.url}/api/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT, scope, state: "s1" })}`,
      );

    await authorize("openid team:read");
    await page.getByRole("heading", { name: "Allow Team Tool to use your account?" }).waitFor();
    await page.getByText("See one team you choose").waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Choose the team the app may use.").waitFor();
    await page.getByLabel("Team the app may use").selectOption({ label: "Household" });
    await shot(page, "oauth-consent-team");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.waitForURL(`${REDIRECT}?**`);
    expect(new URL(page.url()).searchParams.get("code")).toBeString();
    const consents = (await owen.browser.json("GET", "/api/oauth/me/consents")).data.consents;
    expect(consents.find((c: { client_id: string }) => c.client_id === registered.client_id).scopes).toEqual(["openid", `team:${team.id}:read`]);

    // Site scopes: the phrase is checked here, then the server's refusal (no second factor) is shown.
    await authorize("openid site:user:read");
    await page.getByText("power over the whole site").waitFor();
    const phrase = page.getByLabel('Type "grant site access" to confirm');
    await phrase.fill("grant access");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText('Type "grant site access" exactly.').waitFor();
    await phrase.fill("grant site access");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("alert").getByText("Granting site access needs a sign-in with a second factor.").waitFor();
    await shot(page, "oauth-consent-site");

    // An admin marks anyone's app verified by its client ID, from the admin page.
    await page.goto(`${app.url}/admin#verify-app`);
    await page.locator("#verify-app").getByLabel("Client ID").fill(registered.client_id);
    await page.getByRole("button", { name: "Mark verified" }).click();
    await page.getByText("Team Tool is marked verified.").waitFor();
    expect((await alice.bearer("GET", `/api/oauth/me/clients/${registered.client_id}`)).data.is_verified).toBe(true);
    expect(owner.errors).toEqual([]);
  });
});
