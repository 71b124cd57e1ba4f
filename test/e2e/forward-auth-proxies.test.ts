import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { proxySnippet } from "../../src/integrations/proxy-snippets.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import { type EchoApp, type Echoed, type RunningProxy, type ProxyKind, proxySkipReason, proxyVersion, startEchoApp, startProxy } from "../helpers/proxies.ts";
import { freePort } from "../helpers/temp.ts";
import { sessionOf, shot } from "./flows.ts";

/*
 * Issue 45: forward auth in front of real nginx (auth_request) and real Caddy (forward_auth), each
 * configured with nothing but the catalog's snippets, protecting two apps on names no DNS knows
 * (Chromium maps *.home.test to loopback). Cairn is auth.home.test with its cookie on home.test.
 */
const MEDIA = "media.home.test";
const ADMIN = "admin.home.test";
const KINDS: ProxyKind[] = ["nginx", "caddy"];

const skipReason = browserSkipReason ?? (KINDS.map(proxySkipReason).find((reason) => reason !== null) || null);
if (skipReason) console.warn(`skipping the forward-auth proxy tests: ${skipReason}`);

/** What the app shows in the browser: the request it received. */
const echoOn = async (page: Page): Promise<Echoed> => JSON.parse((await page.locator("[data-echo]").textContent()) ?? "{}");

/** The forward-auth cookie the browser holds for home.test, as a Cookie header. */
async function domainCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === "cairn_authz");
  if (!cookie) throw new Error("the browser holds no cairn_authz cookie");
  expect(cookie.domain).toBe(".home.test");
  return `${cookie.name}=${cookie.value}`;
}

describe.skipIf(skipReason !== null)("forward auth behind real proxies", () => {
  let app: TestApp;
  let issuer: string;
  let owner: SignedUp;
  let team: { id: string; name: string };
  let echo: EchoApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp({ issuerHost: "auth.home.test", env: { CAIRN_COOKIE_DOMAIN: "home.test" } });
    issuer = app.ctx.config.issuer;
    owner = await signUp(app, "owner", { name: "Olive Owner" }); // the instance's admin
    team = (await owner.bearer("POST", "/api/oauth/me/teams", { name: "Media crew" })).data.team;
    const rule = async (body: unknown) => {
      const res = await owner.bearer("POST", "/api/oauth/admin/forward-auth/rules", body);
      if (res.status !== 201) throw new Error(`rule not created: ${res.status} ${JSON.stringify(res.data)}`);
    };
    await rule({ host: MEDIA, allow: { teams: [team.id] }, bypass_paths: ["/public"] });
    await rule({ host: ADMIN, allow: { admins: true }, require_mfa: true });
    echo = startEchoApp();
    browser = await launchBrowser(["--host-resolver-rules=MAP *.home.test 127.0.0.1"]);
  });
  afterAll(async () => {
    await browser?.close();
    echo?.stop();
    await app?.stop();
  });

  /** A user in the media team (or not), signed up through the API. */
  const member = async (username: string, name: string, inTeam = true) => {
    const user = await signUp(app, username, { name });
    if (inTeam) {
      const added = await owner.bearer("POST", `/api/oauth/me/teams/${team.id}/members`, { username, role: "member" });
      if (added.status !== 201) throw new Error(`${username} not added to the team: ${added.status} ${JSON.stringify(added.data)}`);
    }
    return user;
  };

  for (const kind of KINDS) {
    describe(`${kind} ${proxyVersion(kind)}`, () => {
      let proxy: RunningProxy;
      let alice: SignedUp;
      let aliceCookie: string;

      beforeAll(async () => {
        const port = freePort();
        const snippets = [MEDIA, ADMIN].map((host) => proxySnippet(kind, { issuer, appUrl: `http://${host}:${port}`, upstream: echo.url }).text);
        proxy = await startProxy(kind, { snippets, issuer, port });
        alice = await member(`alice-${kind}`, "Alice Adams");
        // Her app cookie as Cairn's continue step hands it out, for the requests the test forges.
        const continued = await alice.browser.fetch(`/api/authz/continue?url=${encodeURIComponent(proxy.url(MEDIA, "/"))}`);
        if (continued.status !== 302 || !alice.browser.cookies.has("cairn_authz")) throw new Error(`no app cookie for alice: ${continued.status}`);
        aliceCookie = `cairn_authz=${alice.browser.cookies.get("cairn_authz")}`;
      });
      afterAll(async () => {
        await proxy?.stop();
      });

      /** A fresh browser (its own cookies). */
      const fresh = async () => {
        const context = await browser.newContext();
        return { context, page: await context.newPage() };
      };
      /** A marker in the query that tells whether a request reached the app. */
      const probe = () => `probe=${crypto.randomUUID()}`;
      const reached = (marker: string) => echo.seen.some((e) => e.path.includes(marker));

      /** On Cairn's sign-in page the proxy sent the browser to, for `target`: signs in (with a code when asked). */
      async function signInAtCairn(page: Page, target: string, login: string, secret?: string) {
        await page.waitForURL((url) => url.origin === issuer && url.pathname === "/login");
        expect(new URL(page.url()).searchParams.get("return_to")).toBe(target);
        await page.getByLabel("Username or email").fill(login);
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in", exact: true }).click();
        if (secret) {
          await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
          // The next time step: the enrolment's code may not be used twice.
          await page.getByLabel("Authentication code").fill(await totpCode(secret, Date.now(), 1));
          await page.getByRole("button", { name: "Verify" }).click();
        }
      }

      /** Signed out in a fresh browser, visits `target` and signs in as `login`; resolves on the way back. */
      async function visitAndSignIn(target: string, login: string, secret?: string) {
        const { context, page } = await fresh();
        await page.goto(target);
        await page.waitForURL((url) => url.origin === issuer && url.pathname === "/login");
        // The proxy's answer to the original URL, once Cairn sends the browser back there.
        const back = page.waitForResponse((res) => res.url() === target && res.request().isNavigationRequest());
        await signInAtCairn(page, target, login, secret);
        const status = (await back).status();
        await page.waitForURL((url) => url.href === target);
        return { context, page, status };
      }

      it("signed out, a visit goes through Cairn's sign-in and back to the same URL; the app sees who it is", async () => {
        const target = proxy.url(MEDIA, "/shows/42?sort=name&q=a%20b");
        const { context, page, status } = await visitAndSignIn(target, alice.user.username);
        expect(status).toBe(200);
        const seen = await echoOn(page);
        expect(seen.path).toBe("/shows/42?sort=name&q=a%20b");
        expect(seen.remote).toEqual({
          "remote-user": `alice-${kind}`,
          "remote-email": `alice-${kind}@example.com`,
          "remote-name": "Alice Adams",
          "remote-groups": "Media crew",
        });
        await shot(page, `forward-auth-${kind}`);
        await domainCookie(context);
        // Another path of the same app: in at once, no sign-in.
        const again = await page.goto(proxy.url(MEDIA, "/library"));
        expect(again?.status()).toBe(200);
        expect((await echoOn(page)).path).toBe("/library");
        await context.close();
      });

      it("asks for the authenticator code where the rule requires a second factor, then lets the admin in", async () => {
        const root = await signUp(app, `root-${kind}`, { name: "Rita Root" });
        expect((await owner.bearer("PATCH", `/api/oauth/admin/users/${root.user.id}`, { role: "admin" })).status).toBe(200);
        const secret: string = (await root.browser.json("POST", "/api/oauth/me/totp")).data.secret;
        expect((await root.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, Date.now()) })).status).toBe(200);

        const target = proxy.url(ADMIN, "/settings?tab=users");
        const { context, page, status } = await visitAndSignIn(target, root.user.username, secret);
        expect(status).toBe(200);
        const seen = await echoOn(page);
        expect(seen.path).toBe("/settings?tab=users");
        expect(seen.remote["remote-user"]).toBe(`root-${kind}`);
        expect(seen.remote["remote-groups"]?.split(",")).toContain("admins");
        await context.close();
      });

      it("keeps out an admin who has no second factor where the rule requires one, and says why", async () => {
        const marker = probe();
        const target = proxy.url(ADMIN, `/?${marker}`);
        const { context, page } = await fresh();
        await page.goto(target);
        await signInAtCairn(page, target, owner.user.username);
        await page.getByRole("heading", { name: "This app needs two-step verification" }).waitFor();
        expect(new URL(page.url()).origin).toBe(issuer);
        expect(reached(marker)).toBe(false);
        await context.close();
      });

      it("refuses a person outside the team with 403: the app never sees them", async () => {
        const bob = await member(`bob-${kind}`, "Bob Stranger", false);
        const marker = probe();
        const target = proxy.url(MEDIA, `/shows?${marker}`);
        const { context, status } = await visitAndSignIn(target, bob.user.username);
        expect(status).toBe(403);
        expect(reached(marker)).toBe(false);
        await context.close();
      });

      it("lets a bypass path through without a session and without identity headers, even ones the client sent", async () => {
        const { context, page } = await fresh();
        const opened = await page.goto(proxy.url(MEDIA, "/public/logo.svg?v=2"));
        expect(opened?.status()).toBe(200);
        expect(await echoOn(page)).toMatchObject({ path: "/public/logo.svg?v=2", remote: {} });
        await context.close();

        const forged = await proxy.fetch(MEDIA, "/public/feed.xml", { "remote-user": "owner", "remote-groups": "admins", "remote-email": "owner@example.com" });
        expect(forged.status).toBe(200);
        expect(((await forged.json()) as Echoed).remote).toEqual({});

        // Whole segments only (/publicity is not under /public), and dot segments are resolved
        // first (/public/../private is /private), as the app will resolve them.
        const marker = probe();
        expect((await proxy.fetch(MEDIA, `/publicity?${marker}`)).status).not.toBe(200);
        expect(await proxy.rawGet(MEDIA, "/public/./logo.svg")).toBe(200);
        for (const path of ["/public/../private", "/public/%2e%2e/private", "/public/./%2E%2E/private"])
          expect(await proxy.rawGet(MEDIA, `${path}?${marker}`)).not.toBe(200);
        expect(reached(marker)).toBe(false);
      });

      it("never lets a client's own Remote-* headers reach the app", async () => {
        const res = await proxy.fetch(MEDIA, "/profile", {
          cookie: aliceCookie,
          "Remote-User": "owner",
          "remote-email": "owner@example.com",
          "REMOTE-NAME": "Olive Owner",
          "remote-groups": "admins",
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as Echoed).remote).toEqual({
          "remote-user": `alice-${kind}`,
          "remote-email": `alice-${kind}@example.com`,
          "remote-name": "Alice Adams",
          "remote-groups": "Media crew",
        });
      });

      it("a forged X-Forwarded-Host or X-Original-URL naming an allowed app does not open another rule's app", async () => {
        // Alice may use the media app, not the admin app.
        const control = probe();
        const refused = (await proxy.fetch(ADMIN, `/?${control}`, { cookie: aliceCookie })).status;
        expect(refused).not.toBe(200);
        const marker = probe();
        const forged = await proxy.fetch(ADMIN, `/?${marker}`, {
          cookie: aliceCookie,
          "x-forwarded-host": `${MEDIA}:${proxy.port}`,
          "x-forwarded-proto": "http",
          "x-forwarded-uri": "/",
          "x-forwarded-method": "GET",
          "x-original-url": proxy.url(MEDIA, "/"),
          "x-original-method": "GET",
        });
        expect(forged.status).toBe(refused);
        expect(reached(control) || reached(marker)).toBe(false);

        // Signed out, a forged URL naming a bypass path does not open a protected one.
        const hidden = probe();
        const bypass = await proxy.fetch(MEDIA, `/private?${hidden}`, {
          "x-forwarded-host": `${MEDIA}:${proxy.port}`,
          "x-forwarded-uri": "/public/x",
          "x-original-url": proxy.url(MEDIA, "/public/x"),
        });
        expect(bypass.status).not.toBe(200);
        expect(reached(hidden)).toBe(false);
      });

      it("an API client with a personal access token passes without a cookie (Bearer or Basic)", async () => {
        const pat = (await alice.browser.json("POST", "/api/oauth/me/tokens", { name: `${kind} client`, scopes: ["profile"] })).data.secret as string;
        for (const authorization of [`Bearer ${pat}`, `Basic ${btoa(`alice:${pat}`)}`]) {
          const res = await proxy.fetch(MEDIA, "/api/items", { authorization });
          expect(res.status).toBe(200);
          expect(((await res.json()) as Echoed).remote["remote-user"]).toBe(`alice-${kind}`);
        }
      });

      it("signing out of Cairn ends access at once", async () => {
        const target = proxy.url(MEDIA, "/watching");
        const { context, page, status } = await visitAndSignIn(target, alice.user.username);
        expect(status).toBe(200);
        const cookie = await domainCookie(context);

        await page.goto(`${issuer}/`);
        await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Sign out" }).click();
        await page.getByText("You are signed out.").waitFor();
        expect((await sessionOf(page)).status).toBe(401);
        expect((await context.cookies()).map((c) => c.name)).not.toContain("cairn_authz");

        // The browser is sent to sign in again, and the old cookie, replayed, opens nothing.
        await page.goto(target);
        await page.waitForURL((url) => url.origin === issuer && url.pathname === "/login");
        const marker = probe();
        expect((await proxy.fetch(MEDIA, `/watching?${marker}`, { cookie })).status).not.toBe(200);
        expect(reached(marker)).toBe(false);
        await context.close();
      });

      it("refuses a user an administrator disabled at once", async () => {
        const erin = await member(`erin-${kind}`, "Erin Exit");
        const target = proxy.url(MEDIA, "/queue");
        const { context, page, status } = await visitAndSignIn(target, erin.user.username);
        expect(status).toBe(200);
        const cookie = await domainCookie(context);

        expect((await owner.bearer("PATCH", `/api/oauth/admin/users/${erin.user.id}`, { disabled: true })).status).toBe(200);
        const marker = probe();
        expect((await proxy.fetch(MEDIA, `/queue?${marker}`, { cookie })).status).not.toBe(200);
        const reload = await page.goto(proxy.url(MEDIA, `/queue?${probe()}`));
        expect(page.url().startsWith(`${issuer}/login`) || reload?.status() === 403).toBe(true);
        expect(reached(marker) || echo.seen.some((e) => e.remote["remote-user"] === `erin-${kind}` && e.path.startsWith("/queue?"))).toBe(false);
        await context.close();
      });
    });
  }
});
