import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, signUp, type SignedUp, totpCode } from "../helpers/identity.ts";
import { confidentialApp, obtainTokens } from "../oauth/oauth.fixtures.ts";
import { oidcStandIn } from "./oidc-stand-in.ts";
import { addUpstreamProvider, approveUpstream, callbackIn, PROVIDERS, signInWith, startAt } from "./social.fixtures.ts";

// Two real Cairn instances on loopback: `upstream` is the OpenID provider people already have an
// account at; `down` is the instance they sign in to with it.
const clock = manualClock();
let upstream: TestApp;
let down: TestApp;
let upAdmin: SignedUp;
let upAda: SignedUp;
let upBob: SignedUp;
let admin: SignedUp;
let bob: SignedUp;
let provider: { id: string; slug: string; callback_url: string };

beforeAll(async () => {
  upstream = await startApp();
  down = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
  upAdmin = await signUp(upstream, "root");
  upAda = await signUp(upstream, "ada", { name: "Ada Lovelace" });
  upBob = await signUp(upstream, "bob");
  admin = await signUp(down, "admin");
  bob = await signUp(down, "bob");
  provider = await addUpstreamProvider(upstream, upAdmin, down, admin);
});
afterAll(async () => {
  await down.stop();
  await upstream.stop();
});

const sessionOf = async (browser: ReturnType<typeof jarFetch>) => (await browser.json("GET", "/api/auth/session")).data;

describe("signing in with an upstream OpenID provider", () => {
  it("lists the provider for the login page and names the callback to register upstream", async () => {
    expect((await jarFetch(down.url).json("GET", "/api/auth/providers")).data).toEqual({
      providers: [{ slug: "upstream", name: "Upstream Cairn", kind: "oidc" }],
    });
    expect(provider.callback_url).toBe(`${down.url}/api/auth/social/upstream/callback`);
  });

  it("sends the browser to the provider with state, nonce and PKCE S256", async () => {
    const url = await startAt(jarFetch(down.url), "upstream");
    expect(url.origin).toBe(upstream.url);
    expect(url.pathname).toBe("/api/oauth/authorize");
    const p = url.searchParams;
    expect([p.get("response_type"), p.get("code_challenge_method"), p.get("redirect_uri"), p.get("scope")]).toEqual([
      "code",
      "S256",
      provider.callback_url,
      "openid profile email",
    ]);
    for (const name of ["state", "nonce", "code_challenge"]) expect(p.get(name)?.length).toBeGreaterThanOrEqual(43);
  });

  it("refuses a first sign-in while registration needs an invitation, and creates nothing", async () => {
    await updateSiteConfig(down.ctx, { registration: "invite" });
    const browser = jarFetch(down.url);
    const done = await signInWith(browser, upAda, "upstream");
    expect(done.status).toBe(403);
    expect(done.body).toContain("No account here is linked to this Upstream Cairn account");
    expect(done.body).toContain("New accounts on this site need an invitation.");
    expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);
    expect(await down.ctx.db.all(sql`SELECT count(*) AS n FROM users WHERE email = 'ada@example.com'`)).toEqual([{ n: 0 }]);
  });

  it("creates an account on first sign-in while registration is open; the session carries amr ext", async () => {
    await updateSiteConfig(down.ctx, { registration: "open" });
    const browser = jarFetch(down.url);
    const done = await signInWith(browser, upAda, "upstream", "/teams?x=1");
    expect(done.status).toBe(302);
    expect(done.location).toBe("/teams?x=1");
    const { user, session } = await sessionOf(browser);
    expect(user).toMatchObject({ username: "ada", email: "ada@example.com", name: "Ada Lovelace", role: "user", email_verified: false });
    expect(session).toMatchObject({ amr: ["ext"], acr: "pwd" });
    // Linked, with no password: the account page says so.
    const linked = await browser.json("GET", "/api/oauth/me/social-accounts");
    expect(linked.data.has_password).toBe(false);
    expect(linked.data.social_accounts).toEqual([
      expect.objectContaining({
        provider: "upstream",
        provider_name: "Upstream Cairn",
        provider_user_id: upAda.user.id,
        login: "ada",
        email: "ada@example.com",
      }),
    ]);
    // No password means no password sign-in, whatever is typed.
    for (const password of ["", PASSWORD]) expect((await jarFetch(down.url).json("POST", "/api/auth/login", { login: "ada", password })).status).toBe(401);
  });

  it("signs the same person in to the same account the next time", async () => {
    const browser = jarFetch(down.url);
    const done = await signInWith(browser, upAda, "upstream", "/");
    expect([done.status, done.location]).toEqual([302, "/"]);
    expect((await sessionOf(browser)).user.username).toBe("ada");
    expect(await down.ctx.db.all(sql`SELECT count(*) AS n FROM users WHERE email = 'ada@example.com'`)).toEqual([{ n: 1 }]);
  });

  it("never links by a matching email: the account owner links from inside", async () => {
    // Bob exists here with bob@example.com, and so does upstream Bob.
    const stranger = jarFetch(down.url);
    const refused = await signInWith(stranger, upBob, "upstream");
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("An account with this email already exists");
    expect((await bob.browser.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts).toEqual([]);
    // Bob, signed in, links it from his account page.
    const started = await bob.browser.json("POST", "/api/oauth/me/social-accounts/link", { provider: "upstream" });
    expect(started.status).toBe(200);
    const linked = await callbackIn(bob.browser, await approveUpstream(upBob, new URL(started.data.redirect_to)));
    expect([linked.status, linked.location]).toEqual([302, "/account#linked-accounts"]);
    const [account] = (await bob.browser.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts;
    expect(account).toMatchObject({ provider: "upstream", provider_user_id: upBob.user.id });
    // Now upstream Bob signs in to Bob's account.
    const again = jarFetch(down.url);
    expect((await signInWith(again, upBob, "upstream")).status).toBe(302);
    expect((await sessionOf(again)).user.id).toBe(bob.user.id);
  });

  it("linking needs a sign-in of the last ten minutes: an old stolen session cannot add a way in", async () => {
    clock.advance(11 * 60_000);
    const stale = await bob.browser.json("POST", "/api/oauth/me/social-accounts/link", { provider: "upstream" });
    expect(stale.status).toBe(400);
    expect(stale.data.error_description).toContain("needs a fresh sign-in");
    await signInAgainAs(bob);
  });

  it("refuses to link an upstream account another account already holds", async () => {
    const started = await bob.browser.json("POST", "/api/oauth/me/social-accounts/link", { provider: "upstream" });
    const res = await callbackIn(bob.browser, await approveUpstream(upAda, new URL(started.data.redirect_to)));
    expect(res.status).toBe(409);
    expect(res.body).toContain("That Upstream Cairn account is linked to another account");
  });

  it("finishes a link only in the account that started it", async () => {
    const started = await bob.browser.json("POST", "/api/oauth/me/social-accounts/link", { provider: "upstream" });
    const callback = await approveUpstream(upBob, new URL(started.data.redirect_to));
    await bob.browser.json("POST", "/api/auth/logout");
    const res = await callbackIn(bob.browser, callback);
    expect(res.status).toBe(403);
    expect(res.body).toContain("Sign in to link this account");
    bob = { ...bob, ...(await signInAgainAs(bob)) };
  });
});

describe("the callback refuses what it did not start", () => {
  it("a replayed callback, and 50 identical callbacks at once: exactly one signs in", async () => {
    const browser = jarFetch(down.url);
    const callback = await approveUpstream(upAda, await startAt(browser, "upstream"));
    const answers = await Promise.all(Array.from({ length: 50 }, () => callbackIn(browser, callback)));
    expect(answers.filter((a) => a.status === 302)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused).toHaveLength(49);
    expect(refused[0]?.body).toContain("This sign-in cannot be finished");
    expect((await callbackIn(browser, callback)).status).toBe(400);
  });

  it("a callback in another browser (login CSRF) or with a forged state", async () => {
    const callback = await approveUpstream(upAda, await startAt(jarFetch(down.url), "upstream"));
    const victim = jarFetch(down.url);
    const res = await callbackIn(victim, callback);
    expect(res.status).toBe(400);
    expect((await victim.json("GET", "/api/auth/session")).status).toBe(401);
    const forged = new URL(callback);
    forged.searchParams.set("state", "forged");
    expect((await callbackIn(jarFetch(down.url), forged)).status).toBe(400);
    // An expired start: ten minutes is the limit.
    const browser = jarFetch(down.url);
    const late = await approveUpstream(upAda, await startAt(browser, "upstream"));
    clock.advance(11 * 60_000);
    expect((await callbackIn(browser, late)).status).toBe(400);
  });

  it("the person declining at the provider ends on a page that says so", async () => {
    // Someone who has not consented to this app upstream yet, and declines.
    const upDora = await signUp(upstream, "dora");
    const browser = jarFetch(down.url);
    const callback = await approveUpstream(upDora, await startAt(browser, "upstream"), "deny");
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const res = await callbackIn(browser, callback);
    expect(res.status).toBe(403);
    expect(res.body).toContain("Sign-in was cancelled");
    expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);
  });

  it("an answer naming another issuer (a mix-up) is refused before the code is used", async () => {
    const browser = jarFetch(down.url);
    const callback = await approveUpstream(upAda, await startAt(browser, "upstream"));
    expect(callback.searchParams.get("iss")).toBe(upstream.url);
    callback.searchParams.set("iss", "https://evil.example");
    const res = await callbackIn(browser, callback);
    expect(res.status).toBe(400);
    expect(res.body).toContain("Upstream Cairn answered as another issuer");
    expect(res.body).toContain("https://evil.example");
  });
});

describe("a second factor, unlinking and a first password", () => {
  it("an account with TOTP still asks for it after the provider; the session is ext + otp + mfa", async () => {
    const upCy = await signUp(upstream, "cyd");
    const first = jarFetch(down.url);
    expect((await signInWith(first, upCy, "upstream")).status).toBe(302);
    const secret: string = (await first.json("POST", "/api/oauth/me/totp")).data.secret;
    expect((await first.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, clock.now()) })).status).toBe(200);

    const browser = jarFetch(down.url);
    const done = await signInWith(browser, upCy, "upstream", "/apps");
    const location = new URL(done.location as string, down.url);
    expect(location.pathname + location.search).toBe("/login?return_to=%2Fapps");
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get("methods")).toBe("totp,backup_code");
    expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);
    const mfa = await browser.json("POST", "/api/auth/login/mfa", { mfa_token: fragment.get("mfa"), code: await totpCode(secret, clock.now(), 1) });
    expect(mfa.status).toBe(200);
    expect((await sessionOf(browser)).session).toMatchObject({ amr: ["ext", "otp", "mfa"], acr: "mfa" });
  });

  it("the only way into an account cannot be unlinked; a first password needs a fresh sign-in", async () => {
    const browser = jarFetch(down.url);
    await signInWith(browser, upAda, "upstream");
    const [link] = (await browser.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts;
    const refused = await browser.json("DELETE", `/api/oauth/me/social-accounts/${link.id}`);
    expect(refused.status).toBe(409);
    expect(refused.data.error_description).toContain("This is the only way into your account");
    // Eleven minutes on, the session is too old to set a first password.
    clock.advance(11 * 60_000);
    const stale = await browser.json("POST", "/api/oauth/me/password", { current_password: "", new_password: "a new long password" });
    expect(stale.status).toBe(400);
    expect(stale.data.error_description).toContain("needs a fresh sign-in");
    const fresh = jarFetch(down.url);
    await signInWith(fresh, upAda, "upstream");
    expect((await fresh.json("POST", "/api/oauth/me/password", { current_password: "", new_password: "a new long password" })).status).toBe(200);
    expect((await fresh.json("GET", "/api/oauth/me/social-accounts")).data.has_password).toBe(true);
    expect((await jarFetch(down.url).json("POST", "/api/auth/login", { login: "ada", password: "a new long password" })).status).toBe(200);
    // With a password the link may go; after that the provider no longer signs in to this account.
    expect((await fresh.json("DELETE", `/api/oauth/me/social-accounts/${link.id}`)).status).toBe(200);
    expect((await fresh.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts).toEqual([]);
    expect((await signInWith(jarFetch(down.url), upAda, "upstream")).status).toBe(409);
  });
});

describe("the social_accounts claim and the scoped API", () => {
  it("the claim carries {id, provider, provider_user_id} with social:read and the client's oidc_field", async () => {
    const rp = await confidentialApp(down, admin, { scopes: ["openid", "social:read"], oidc_fields: ["social_accounts"] });
    const [link] = (await bob.browser.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts;
    const claims = (await obtainTokens(bob, rp, "openid social:read")).claims() as Record<string, unknown>;
    expect(claims.social_accounts).toEqual([{ id: link.id, provider: "upstream", provider_user_id: upBob.user.id }]);
    expect(((await obtainTokens(bob, rp, "openid")).claims() as Record<string, unknown>).social_accounts).toBeUndefined();
  });

  it("a token without social:read or social:write is refused with insufficient_scope", async () => {
    const pat = async (scopes: string[]) =>
      (await bob.browser.json("POST", "/api/oauth/me/tokens", { name: `s${scopes.join()}`, scopes })).data.secret as string;
    const as = (token: string) => ({ authorization: `Bearer ${token}`, cookie: "" });
    const none = await pat(["profile"]);
    const read = await pat(["social:read"]);
    const write = await pat(["social:write"]);
    const [link] = (await bob.browser.json("GET", "/api/oauth/me/social-accounts")).data.social_accounts;
    for (const [method, path, token] of [
      ["GET", "/api/oauth/me/social-accounts", none],
      ["DELETE", `/api/oauth/me/social-accounts/${link.id}`, read],
    ] as const) {
      const res = await bob.browser.json(method, path, undefined, as(token));
      expect([path, res.status, res.data.error]).toEqual([path, 403, "insufficient_scope"]);
    }
    expect((await bob.browser.json("GET", "/api/oauth/me/social-accounts", undefined, as(read))).data.social_accounts).toHaveLength(1);
    // Linking runs in the person's browser: an app's token cannot start it.
    expect((await bob.browser.json("POST", "/api/oauth/me/social-accounts/link", { provider: "upstream" }, as(write))).status).toBe(403);
    expect((await bob.browser.json("DELETE", `/api/oauth/me/social-accounts/${link.id}`, undefined, as(write))).status).toBe(200);
    expect((await bob.browser.json("DELETE", `/api/oauth/me/social-accounts/${link.id}`)).status).toBe(404);
  });
});

describe("OpenID Connect Core 1.0 section 3.1.3.7: the upstream ID token is verified", () => {
  // A provider of our own making, so that it can sign with a key it never published.
  let standIn: Awaited<ReturnType<typeof oidcStandIn>>;
  const eve = { sub: "eve-at-stand-in", preferred_username: "eve", name: "Eve", email: "eve@example.com" };
  const linksTo = async (sub: string) => (await down.ctx.db.all(sql`SELECT count(*) AS n FROM social_accounts WHERE provider_user_id = ${sub}`))[0];
  const accountsOf = async (email: string) => (await down.ctx.db.all(sql`SELECT count(*) AS n FROM users WHERE email = ${email}`))[0];

  beforeAll(async () => {
    standIn = await oidcStandIn({ clientId: "cairn-down", clientSecret: "stand-in-secret" }, () => clock.now());
    const res = await admin.browser.json("POST", PROVIDERS, {
      slug: "standin",
      kind: "oidc",
      name: "Stand-in OP",
      issuer: standIn.url,
      client_id: "cairn-down",
      client_secret: "stand-in-secret",
    });
    expect(res.status).toBe(201);
    await updateSiteConfig(down.ctx, { registration: "open" });
  });
  afterAll(() => standIn.stop());

  /** Start at `down`, the stand-in approves at once as `user`, then the callback. */
  const viaStandIn = async (browser: ReturnType<typeof jarFetch>, user: typeof eve, start?: URL) => {
    standIn.state.user = user;
    const authorize = await fetch(start ?? (await startAt(browser, "standin")), { redirect: "manual" });
    expect(authorize.status).toBe(302);
    return callbackIn(browser, new URL(authorize.headers.get("location") as string));
  };

  for (const signing of ["unpublished", "unpublished-same-kid"] as const) {
    it(`refuses an ID token signed by a key the provider does not publish (${signing}), creating no account, session or link`, async () => {
      standIn.state.signing = signing;
      const browser = jarFetch(down.url);
      const res = await viaStandIn(browser, eve);
      expect(res.status).toBe(400);
      expect(res.body).toContain("answer could not be verified");
      expect(res.body).toContain("is not signed by one of Stand-in OP");
      expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);
      expect(await accountsOf(eve.email)).toEqual({ n: 0 });
      expect(await linksTo(eve.sub)).toEqual({ n: 0 });
      expect(down.logs.some((l) => l.msg === "sign-in at an upstream provider failed" && l.kind === "unverified")).toBe(true);
    });
  }

  it("refuses a forged ID token when linking from the account page too: no link is made", async () => {
    standIn.state.signing = "unpublished-same-kid";
    await signInAgainAs(bob);
    const started = await bob.browser.json("POST", "/api/oauth/me/social-accounts/link", { provider: "standin" });
    expect(started.status).toBe(200);
    const res = await viaStandIn(bob.browser, { ...eve, sub: "bob-at-stand-in" }, new URL(started.data.redirect_to));
    expect(res.status).toBe(400);
    expect(await linksTo("bob-at-stand-in")).toEqual({ n: 0 });
  });

  it("refuses tokens for another audience, expired, or carrying another nonce", async () => {
    standIn.state.signing = "published";
    for (const claims of [{ aud: "someone-else" }, { exp: Math.floor(clock.now() / 1000) - 120 }, { nonce: "replayed" }]) {
      standIn.state.claims = claims;
      const browser = jarFetch(down.url);
      const res = await viaStandIn(browser, eve);
      expect([JSON.stringify(claims), res.status]).toEqual([JSON.stringify(claims), 400]);
      expect(res.body).toContain("answer could not be verified");
      expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);
    }
    standIn.state.claims = {};
    expect(await accountsOf(eve.email)).toEqual({ n: 0 });
  });

  it("signs in with the token once it is signed by the published key", async () => {
    standIn.state.signing = "published";
    const browser = jarFetch(down.url);
    const res = await viaStandIn(browser, eve);
    expect(res.status).toBe(302);
    expect((await sessionOf(browser)).user).toMatchObject({ username: "eve", email: "eve@example.com" });
    expect(await linksTo(eve.sub)).toEqual({ n: 1 });
  });
});

/** A fresh password sign-in for a user of `down`, in the same browser. */
async function signInAgainAs(user: SignedUp) {
  const res = await user.browser.json("POST", "/api/auth/login", { login: user.user.username, password: PASSWORD });
  expect(res.status).toBe(200);
  return { token: res.data.session_token as string };
}
