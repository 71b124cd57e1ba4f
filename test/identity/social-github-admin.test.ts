import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { githubStandIn, type GithubUser } from "./github-stand-in.ts";
import { callbackIn, PROVIDERS, startAt } from "./social.fixtures.ts";

const APP = { clientId: "Iv1.cairntest", clientSecret: "s3cret-of-the-oauth-app" };
const octocat: GithubUser = {
  id: 583231,
  login: "Octo-Cat",
  name: "The Octocat",
  email: null,
  emails: [
    { email: "583231+octocat@users.noreply.github.com", primary: false, verified: true },
    { email: "octocat@example.com", primary: true, verified: true },
  ],
};
let github: ReturnType<typeof githubStandIn>;
let app: TestApp;
let admin: SignedUp;
let provider: Record<string, unknown> & { id: string };

beforeAll(async () => {
  github = githubStandIn(APP);
  github.state.user = octocat;
  app = await startApp({ overrides: { outbound: { allowLoopback: true } } });
  admin = await signUp(app, "admin");
  const res = await admin.browser.json("POST", PROVIDERS, {
    slug: "github",
    kind: "github",
    name: "GitHub",
    web_url: github.url,
    api_url: `${github.url}/api/v3/`,
    client_id: APP.clientId,
    client_secret: APP.clientSecret,
    trust_email: true,
  });
  expect(res.status).toBe(201);
  provider = res.data.provider;
});
afterAll(async () => {
  await app.stop();
  github.stop();
});

/** The browser's trip: start here, the stand-in's authorize page (approving at once), back to the callback. */
async function signInWithGithub(browser = jarFetch(app.url), tamper: (callback: URL) => void = () => {}) {
  const authorize = await startAt(browser, "github");
  const res = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(res.headers.get("location") as string);
  tamper(callback);
  return { browser, ...(await callbackIn(browser, callback)) };
}

describe("signing in with GitHub (a stand-in on loopback)", () => {
  it("the provider is stored with its defaults and without its secret in any answer", () => {
    expect(provider).toMatchObject({
      slug: "github",
      kind: "github",
      web_url: github.url,
      api_url: `${github.url}/api/v3`,
      client_id: APP.clientId,
      client_secret_set: true,
      scopes: "read:user user:email",
      enabled: true,
      trust_email: true,
      callback_url: `${app.url}/api/auth/social/github/callback`,
      linked_accounts: 0,
    });
    expect(JSON.stringify(provider)).not.toContain(APP.clientSecret);
  });

  it("authorizes at the web origin with state and PKCE; the code is redeemed with the verifier", async () => {
    const browser = jarFetch(app.url);
    const authorize = await startAt(browser, "github");
    expect(authorize.origin + authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email");
    const done = await signInWithGithub(browser);
    expect([done.status, done.location]).toEqual([302, "/apps"]);
    const last = github.state.tokenRequests.at(-1) as URLSearchParams;
    expect(last.get("redirect_uri")).toBe(`${app.url}/api/auth/social/github/callback`);
    expect(last.get("code_verifier")?.length).toBeGreaterThanOrEqual(43);
  });

  it("made an account from GitHub's id, login and primary verified email (trusted, so verified here)", async () => {
    const browser = (await signInWithGithub()).browser;
    const { user, session } = (await browser.json("GET", "/api/auth/session")).data;
    expect(user).toMatchObject({ username: "octo-cat", email: "octocat@example.com", email_verified: true, name: "The Octocat" });
    expect(session.amr).toEqual(["ext"]);
    const [link] = (await browser.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts;
    expect(link).toMatchObject({ provider: "github", provider_user_id: "583231", login: "Octo-Cat", email: "octocat@example.com" });
    expect(await app.ctx.db.all(sql`SELECT count(*) AS n FROM users`)).toEqual([{ n: 2 }]);
  });

  it("a code GitHub refuses, a denial, and GitHub unreachable each end on a page", async () => {
    const refused = await signInWithGithub(undefined, (callback) => callback.searchParams.set("code", "not-a-code"));
    expect(refused.status).toBe(424);
    expect(refused.body).toContain("GitHub did not confirm the sign-in");
    expect(refused.body).toContain("The code passed is incorrect or expired.");

    const browser = jarFetch(app.url);
    const authorize = await startAt(browser, "github");
    authorize.searchParams.set("deny", "1");
    const denied = await callbackIn(browser, new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location") as string));
    expect(denied.status).toBe(403);
    expect(denied.body).toContain("Sign-in was cancelled");

    const later = jarFetch(app.url);
    const pending = new URL((await fetch(await startAt(later, "github"), { redirect: "manual" })).headers.get("location") as string);
    github.stop();
    const unreachable = await callbackIn(later, pending);
    expect(unreachable.status).toBe(424);
    expect(unreachable.body).toContain("GitHub cannot be reached");
    expect(unreachable.body).not.toContain("ECONNREFUSED");
    github = githubStandIn(APP, github.port);
    github.state.user = octocat;
    expect((await signInWithGithub()).status).toBe(302);
  });

  it("a disabled account is not signed in", async () => {
    const id = (await app.ctx.db.all<{ id: string }>(sql`SELECT id FROM users WHERE username = 'octo-cat'`))[0]?.id;
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${id}`, { disabled: true })).status).toBe(200);
    const res = await signInWithGithub();
    expect(res.status).toBe(403);
    expect(res.body).toContain("This account is disabled");
    await admin.browser.json("PATCH", `/api/oauth/admin/users/${id}`, { disabled: false });
  });
});

describe("administering identity providers", () => {
  it("admins only; a token needs admin:config:read / admin:config:write", async () => {
    const ada = await signUp(app, "ada");
    expect((await ada.browser.json("GET", PROVIDERS)).status).toBe(403);
    expect((await jarFetch(app.url).json("GET", PROVIDERS)).status).toBe(401);
    // Admin tokens otherwise need a sign-in with a second factor, which is beside the point here.
    await updateSiteConfig(app.ctx, { admin_requires_mfa: false });
    const token = (await admin.browser.json("POST", "/api/oauth/me/tokens", { name: "read only", scopes: ["admin:config:read"] })).data.secret as string;
    const as = { authorization: `Bearer ${token}`, cookie: "" };
    expect((await admin.browser.json("GET", PROVIDERS, undefined, as)).data.providers).toHaveLength(1);
    const write = await admin.browser.json("POST", PROVIDERS, { slug: "x", kind: "github", name: "X", client_id: "x", client_secret: "y" }, as);
    expect([write.status, write.data.error]).toEqual([403, "insufficient_scope"]);
  });

  it("refuses bad input with a clear 400 and changes nothing", async () => {
    const wellKnown = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        Response.json({
          issuer: "https://someone-else.example",
          authorization_endpoint: "https://someone-else.example/a",
          token_endpoint: "https://someone-else.example/t",
        }),
    });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ slug: "Bad Slug", kind: "oidc" }, 400, "The slug is"],
      [{ slug: "github", kind: "github", name: "Again", client_id: "a", client_secret: "b" }, 409, "Another provider has that slug"],
      [{ slug: "okta", kind: "saml", name: "Okta", client_id: "a" }, 400, ""],
      [{ slug: "okta", kind: "oidc", name: "Okta", client_id: "a" }, 400, "needs its issuer URL"],
      [{ slug: "okta", kind: "oidc", name: "Okta", client_id: "a", issuer: "not a url" }, 400, "absolute URL"],
      [
        { slug: "okta", kind: "oidc", name: "Okta", client_id: "a", issuer: "http://127.0.0.1:9" },
        400,
        "could not read http://127.0.0.1:9/.well-known/openid-configuration",
      ],
      [{ slug: "okta", kind: "oidc", name: "Okta", client_id: "a", issuer: `http://127.0.0.1:${wellKnown.port}` }, 400, "names another issuer"],
      [{ slug: "okta", kind: "oidc", name: "Okta", client_id: "a", issuer: "https://x.example", scopes: "profile email" }, 400, 'include "openid"'],
      [{ slug: "gh2", kind: "github", name: "GH", client_id: "a" }, 400, "client secret"],
      [{ slug: "gh2", kind: "github", name: "", client_id: "a", client_secret: "b" }, 400, "name must be"],
    ];
    for (const [body, status, text] of cases) {
      const res = await admin.browser.json("POST", PROVIDERS, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
      if (text) expect(res.data.error_description).toContain(text);
    }
    wellKnown.stop(true);
    expect((await admin.browser.json("GET", PROVIDERS)).data.providers).toHaveLength(1);
    expect((await admin.browser.json("PATCH", `${PROVIDERS}/${provider.id}`, { slug: "gh" })).status).toBe(400);
    expect((await admin.browser.json("PATCH", `${PROVIDERS}/${provider.id}`, { kind: "oidc" })).status).toBe(400);
    expect((await admin.browser.json("PATCH", `${PROVIDERS}/nope`, { name: "x" })).status).toBe(404);
  });

  it("a provider with linked accounts cannot be pointed at another server; GitHub Enterprise gets its own API URL", async () => {
    const moved = await admin.browser.json("PATCH", `${PROVIDERS}/${provider.id}`, { web_url: "https://github.example.com" });
    expect(moved.status).toBe(409);
    expect(moved.data.error_description).toContain("user ids from another server would sign in to them");
    const enterprise = await admin.browser.json("POST", PROVIDERS, {
      slug: "ghe",
      kind: "github",
      name: "GHE",
      web_url: "https://github.example.com",
      client_id: "a",
      client_secret: "b",
    });
    expect(enterprise.data.provider).toMatchObject({ web_url: "https://github.example.com", api_url: "https://github.example.com/api/v3" });
    // With nobody linked it may move, and the API URL follows unless given.
    const repointed = await admin.browser.json("PATCH", `${PROVIDERS}/${enterprise.data.provider.id}`, { web_url: "https://git.example.org" });
    expect(repointed.data.provider.api_url).toBe("https://git.example.org/api/v3");
    expect((await admin.browser.json("DELETE", `${PROVIDERS}/${enterprise.data.provider.id}`)).status).toBe(200);
  });

  it("a provider whose discovery document has no authorization endpoint ends on a page, not a 500", async () => {
    let issuer = "";
    const broken = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => Response.json({ issuer, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }),
    });
    issuer = `http://127.0.0.1:${broken.port}`;
    const created = await admin.browser.json("POST", PROVIDERS, { slug: "broken", kind: "oidc", name: "Broken", issuer, client_id: "a", client_secret: "b" });
    expect(created.status).toBe(201);
    const res = await jarFetch(app.url).fetch("/api/auth/social/broken/start");
    expect(res.status).toBe(424);
    expect(await res.text()).toContain("Broken did not confirm the sign-in");
    broken.stop(true);
    await admin.browser.json("DELETE", `${PROVIDERS}/${created.data.provider.id}`);
  });

  it("a turned-off provider leaves the login page and cannot start; deleting unlinks its accounts", async () => {
    const off = await admin.browser.json("PATCH", `${PROVIDERS}/${provider.id}`, { enabled: false, name: "GitHub.com" });
    expect(off.data.provider).toMatchObject({ enabled: false, name: "GitHub.com", linked_accounts: 1 });
    expect((await jarFetch(app.url).json("GET", "/api/auth/providers")).data.providers).toEqual([]);
    const start = await jarFetch(app.url).fetch("/api/auth/social/github/start");
    expect(start.status).toBe(404);
    expect(await start.text()).toContain("This sign-in option is not available");
    const gone = await admin.browser.json("DELETE", `${PROVIDERS}/${provider.id}`);
    expect(gone.data).toEqual({ ok: true, unlinked: 1 });
    expect(await app.ctx.db.all(sql`SELECT count(*) AS n FROM social_accounts`)).toEqual([{ n: 0 }]);
    expect((await admin.browser.json("GET", PROVIDERS)).data.providers).toEqual([]);
  });
});
