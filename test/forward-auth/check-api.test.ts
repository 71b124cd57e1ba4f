import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count, eq } from "drizzle-orm";
import { forwardAuthRules } from "../../src/forward-auth/rules/rules.table.ts";
import { authzSessions } from "../../src/forward-auth/sessions/authz-sessions.table.ts";
import { users } from "../../src/identity/users/users.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type RunningServer, startServer } from "../helpers/cli.ts";
import { manualClock } from "../helpers/clock.ts";
import { signInWithTotp, signUp, type SignedUp } from "../helpers/identity.ts";
import { storeEnv } from "../helpers/pg-store.ts";
import { addMember, makeTeam, TEAMS } from "../identity/teams.fixtures.ts";

/*
 * Forward auth's check (issue 45), through the real app: real sign-ins, real personal access
 * tokens, the rules made through the admin API, and the cookie `continue` mints for CAIRN_COOKIE_DOMAIN.
 */
const clock = manualClock();
const DOMAIN = "home.test";
let app: TestApp;
let admin: SignedUp, alice: SignedUp, bob: SignedUp, carol: SignedUp;
let media: string, kids: string;

type Rule = Record<string, unknown>;
const addRule = async (rule: Rule): Promise<string> => {
  const res = await admin.browser.json("POST", "/api/oauth/admin/forward-auth/rules", rule);
  if (res.status !== 201) throw new Error(`rule ${JSON.stringify(rule)}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data.rule.id;
};

/** Caddy or Traefik asking about `https://<host><uri>`. */
const forwardAuth = (host: string, uri: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${app.url}/api/authz/forward-auth`, {
    headers: { "x-forwarded-proto": "https", "x-forwarded-host": host, "x-forwarded-uri": uri, "x-forwarded-method": method, ...headers },
    redirect: "manual",
  });
/** nginx asking about `url`. */
const authRequest = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/authz/auth-request`, { headers: { "x-original-url": url, ...headers }, redirect: "manual" });

/** The browser comes back from sign-in through `continue`: answers its forward auth cookie as a Cookie header. */
async function grant(browser: SignedUp["browser"], url: string): Promise<Record<string, string>> {
  const res = await browser.fetch(`/api/authz/continue?url=${encodeURIComponent(url)}`);
  if (res.status !== 302 || res.headers.get("location") !== url)
    throw new Error(`continue to ${url}: ${res.status} ${res.headers.get("location")} ${await res.text()}`);
  const value = browser.cookies.get("cairn_authz");
  if (!value) throw new Error("continue set no cairn_authz cookie");
  return { cookie: `cairn_authz=${value}` };
}
const cookieRows = async () => (await app.ctx.db.select({ n: count() }).from(authzSessions).get())?.n;
const sidOf = async (browser: SignedUp["browser"]) => (await browser.json("GET", "/api/auth/session")).data.session.sid as string;
const signInUrl = (url: string, mfa = false) => `${app.ctx.config.issuer}/login?return_to=${encodeURIComponent(url)}${mfa ? "&mfa=required" : ""}`;
const identityOf = (res: Response) => ({
  user: res.headers.get("remote-user"),
  email: res.headers.get("remote-email"),
  name: res.headers.get("remote-name"),
  groups: res.headers.get("remote-groups"),
});

beforeAll(async () => {
  app = await startApp({ issuerHost: `auth.${DOMAIN}`, env: { CAIRN_COOKIE_DOMAIN: `.${DOMAIN}` }, overrides: { clock } });
  admin = await signUp(app, "admin", { name: "The Admin" });
  alice = await signUp(app, "alice", { name: "Alice Liddell" });
  bob = await signUp(app, "bob");
  carol = await signUp(app, "carol");
  media = await makeTeam(alice, "Media, Inc");
  kids = await makeTeam(alice, "Kids", media);
  await addMember(alice, media, carol, "member");
  expect((await alice.bearer("POST", `${TEAMS}/${media}/groups`, { slug: "ops", name: "Ops" })).status).toBe(201);
  expect((await alice.bearer("PUT", `${TEAMS}/${media}/groups/ops/members`, { user_ids: [carol.user.id] })).status).toBe(200);
  await addRule({ host: `media.${DOMAIN}`, allow: { teams: [media] }, bypass_paths: ["/api"] });
  await addRule({ host: `ops.${DOMAIN}`, allow: { groups: [`${media}/ops`] }, headers: { user: "X-User", groups: "X-Groups" } });
  await addRule({ host: `admin.${DOMAIN}`, allow: { admins: true } });
  await addRule({ host: `kids.${DOMAIN}`, allow: { teams: [kids] } });
  await addRule({ host: `vault.${DOMAIN}`, allow: { everyone: true }, require_mfa: true });
  await addRule({ host: `*.apps.${DOMAIN}`, allow: { everyone: true }, methods: ["GET"], path_prefixes: ["/ui"] });
});
afterAll(() => app.stop());

describe("signed out", () => {
  it("Caddy and Traefik get a redirect to sign in that comes back to the exact original URL", async () => {
    const url = `https://media.${DOMAIN}/movies/a%20b?id=1&q=x%2Fy`;
    const res = await forwardAuth(`media.${DOMAIN}`, "/movies/a%20b?id=1&q=x%2Fy");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(signInUrl(url));
    expect(await res.text()).toBe("");
  });

  it("nginx gets 401 (it redirects itself, error_page 401) with the same sign-in URL as Location", async () => {
    const url = `https://media.${DOMAIN}/movies?a=1&b=2`;
    const res = await authRequest(url);
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBe(signInUrl(url));
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it("a bypass path passes without a session and without identity headers", async () => {
    for (const res of [await forwardAuth(`media.${DOMAIN}`, "/api/items?key=1"), await authRequest(`https://media.${DOMAIN}/api`)]) {
      expect(res.status).toBe(200);
      expect(identityOf(res).user).toBeNull();
    }
    // Whole segments only, and a dot segment cannot climb out of the bypass.
    expect((await forwardAuth(`media.${DOMAIN}`, "/apix")).status).toBe(302);
    expect((await forwardAuth(`media.${DOMAIN}`, "/api/../movies")).status).toBe(302);
  });

  it("no rule for the host is 403, signed in or not", async () => {
    expect((await forwardAuth(`nothing.${DOMAIN}`, "/")).status).toBe(403);
    expect((await authRequest(`https://nothing.${DOMAIN}/`)).status).toBe(403);
    const cookie = await grant(alice.browser, `https://media.${DOMAIN}/`);
    expect((await forwardAuth(`nothing.${DOMAIN}`, "/", cookie)).status).toBe(403);
  });

  it("missing or malformed forwarded headers are 400 invalid_request naming the header", async () => {
    const bare = await fetch(`${app.url}/api/authz/forward-auth`, { headers: { "x-forwarded-proto": "https", "x-forwarded-uri": "/" } });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({ error: "invalid_request", error_description: expect.stringContaining("X-Forwarded-Host") });
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { "x-forwarded-proto": "ftp" })).status).toBe(400);
    expect((await forwardAuth(`media.${DOMAIN}`, "no-slash")).status).toBe(400);
    expect((await forwardAuth(`media.${DOMAIN}`, "/a b")).status).toBe(400);
    // A list means a proxy appended to what the client sent: the client would choose the host.
    expect((await forwardAuth(`evil.example, media.${DOMAIN}`, "/")).status).toBe(400);
    expect((await forwardAuth(`user@media.${DOMAIN}`, "/")).status).toBe(400);
    expect((await authRequest(`media.${DOMAIN}/no-scheme`)).status).toBe(400);
    expect((await fetch(`${app.url}/api/authz/auth-request`)).status).toBe(400);
  });
});

describe("signed in", () => {
  it("allowed: 200, no body, and the identity headers (team names without commas, groups, admins)", async () => {
    const cookie = await grant(alice.browser, `https://media.${DOMAIN}/`);
    for (const res of [await forwardAuth(`media.${DOMAIN}`, "/movies", cookie), await authRequest(`https://media.${DOMAIN}/movies`, cookie)]) {
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("");
      expect(identityOf(res)).toEqual({ user: "alice", email: "alice@example.com", name: "Alice Liddell", groups: "Kids,Media Inc" });
    }
    const adminCookie = await grant(admin.browser, `https://admin.${DOMAIN}/`);
    const res = await forwardAuth(`admin.${DOMAIN}`, "/", adminCookie);
    expect(res.status).toBe(200);
    expect(identityOf(res)).toEqual({ user: "admin", email: "admin@example.com", name: "The Admin", groups: "admins" });
  });

  it("a group's rule lets its members through, under the rule's own header names", async () => {
    const cookie = await grant(carol.browser, `https://ops.${DOMAIN}/`);
    const res = await forwardAuth(`ops.${DOMAIN}`, "/", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-user")).toBe("carol");
    // A member of the parent team is one of its sub-team's too.
    expect(res.headers.get("x-groups")).toBe("Kids,Media Inc,Media Inc/ops");
    expect(res.headers.get("remote-email")).toBe("carol@example.com");
    expect(res.headers.get("remote-user")).toBeNull();
    expect(res.headers.get("remote-groups")).toBeNull();
  });

  it("team, group and admin rules refuse everyone else with 403; a parent team's member passes a sub-team's rule", async () => {
    const aliceCookie = await grant(alice.browser, `https://media.${DOMAIN}/`);
    const bobCookie = await grant(bob.browser, `https://media.${DOMAIN}/`);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", bobCookie)).status).toBe(403);
    expect((await authRequest(`https://media.${DOMAIN}/`, bobCookie)).status).toBe(403);
    expect((await forwardAuth(`ops.${DOMAIN}`, "/", aliceCookie)).status).toBe(403);
    expect((await forwardAuth(`admin.${DOMAIN}`, "/", aliceCookie)).status).toBe(403);
    expect((await forwardAuth(`kids.${DOMAIN}`, "/", aliceCookie)).status).toBe(200);
    expect((await forwardAuth(`kids.${DOMAIN}`, "/", bobCookie)).status).toBe(403);
  });

  it("a rule's methods and path prefixes decide whether it applies at all: outside them, no rule (403)", async () => {
    const cookie = await grant(bob.browser, `https://tv.apps.${DOMAIN}/ui`);
    expect((await forwardAuth(`tv.apps.${DOMAIN}`, "/ui/shows", cookie)).status).toBe(200);
    expect((await forwardAuth(`a.b.apps.${DOMAIN}`, "/ui", cookie)).status).toBe(200);
    expect((await forwardAuth(`tv.apps.${DOMAIN}`, "/ui/shows", cookie, "POST")).status).toBe(403);
    expect((await authRequest(`https://tv.apps.${DOMAIN}/ui`, { ...cookie, "x-original-method": "DELETE" })).status).toBe(403);
    expect((await forwardAuth(`tv.apps.${DOMAIN}`, "/admin", cookie)).status).toBe(403);
    expect((await forwardAuth(`apps.${DOMAIN}`, "/ui", cookie)).status).toBe(403);
  });

  it("nginx's endpoint reads the host from X-Original-URL only: a forged X-Forwarded-Host reaches no other rule", async () => {
    const cookie = await grant(alice.browser, `https://media.${DOMAIN}/`);
    expect((await authRequest(`https://ops.${DOMAIN}/`, { ...cookie, "x-forwarded-host": `media.${DOMAIN}`, "x-forwarded-uri": "/" })).status).toBe(403);
    const allowed = await authRequest(`https://media.${DOMAIN}/`, { ...cookie, "x-forwarded-host": `ops.${DOMAIN}` });
    expect(allowed.status).toBe(200);
    expect(identityOf(allowed).user).toBe("alice");
    // Signed out, the forged host cannot turn a protected app into a bypass either.
    expect((await authRequest(`https://media.${DOMAIN}/movies`, { "x-forwarded-host": `media.${DOMAIN}`, "x-forwarded-uri": "/api" })).status).toBe(401);
  });
});

describe("a second factor", () => {
  it("a password-only session is sent to sign in with one (nginx: 401); a TOTP session passes; continue asks for it first", async () => {
    const frank = await signUp(app, "frank");
    const vault = `https://vault.${DOMAIN}/secrets?x=1`;
    const passwordOnly = await grant(frank.browser, `https://tv.apps.${DOMAIN}/ui`);
    const res = await forwardAuth(`vault.${DOMAIN}`, "/secrets?x=1", passwordOnly);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(signInUrl(vault, true));
    const nginx = await authRequest(vault, passwordOnly);
    expect(nginx.status).toBe(401);
    expect(nginx.headers.get("location")).toBe(signInUrl(vault, true));

    const { browser } = await signInWithTotp(app, frank, clock.now);
    // The password-only session, coming back to the vault, is sent to the step-up first.
    const stepUp = await frank.browser.fetch(`/api/authz/continue?url=${encodeURIComponent(vault)}`);
    expect(stepUp.status).toBe(302);
    expect(stepUp.headers.get("location")).toBe(`/login?return_to=${encodeURIComponent(vault)}&mfa=required`);
    expect(stepUp.headers.get("set-cookie")).toBeNull();
    const withFactor = await grant(browser, vault);
    const passed = await forwardAuth(`vault.${DOMAIN}`, "/secrets?x=1", withFactor);
    expect(passed.status).toBe(200);
    expect(identityOf(passed).user).toBe("frank");
    expect((await authRequest(vault, withFactor)).status).toBe(200);
  });

  it("an account without any second factor is told so by continue, not sent round in a loop", async () => {
    const res = await bob.browser.fetch(`/api/authz/continue?url=${encodeURIComponent(`https://vault.${DOMAIN}/`)}`);
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("two-step verification");
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});

describe("personal access tokens", () => {
  const pat = async (who: SignedUp) =>
    (await who.browser.json("POST", "/api/oauth/me/tokens", { name: "proxy", scopes: ["profile"] })).data as { secret: string; token: { id: string } };
  const basic = (secret: string, user = "anything") => `Basic ${btoa(`${user}:${secret}`)}`;

  it("pass as Bearer and as Basic's password, whatever their scopes, with the person's headers", async () => {
    const { secret } = await pat(alice);
    for (const authorization of [`Bearer ${secret}`, basic(secret), basic(secret, "")]) {
      for (const res of [await forwardAuth(`media.${DOMAIN}`, "/", { authorization }), await authRequest(`https://media.${DOMAIN}/`, { authorization })]) {
        expect(res.status).toBe(200);
        expect(identityOf(res).user).toBe("alice");
      }
    }
    // A token is the person: not allowed is still 403, and it never shows a second factor.
    expect((await forwardAuth(`ops.${DOMAIN}`, "/", { authorization: `Bearer ${secret}` })).status).toBe(403);
    expect((await forwardAuth(`vault.${DOMAIN}`, "/", { authorization: `Bearer ${secret}` })).status).toBe(403);
  });

  it("a bad token is 401 with a challenge, never a redirect (both endpoints), and a revoked one at once", async () => {
    for (const ask of [
      (h: Record<string, string>) => forwardAuth(`media.${DOMAIN}`, "/", h),
      (h: Record<string, string>) => authRequest(`https://media.${DOMAIN}/`, h),
    ]) {
      const bearer = await ask({ authorization: "Bearer cairn_pat_not-a-real-token" });
      expect(bearer.status).toBe(401);
      expect(bearer.headers.get("www-authenticate")).toBe('Bearer realm="Cairn", error="invalid_token"');
      expect(bearer.headers.get("location")).toBeNull();
      const viaBasic = await ask({ authorization: basic("cairn_pat_not-a-real-token") });
      expect(viaBasic.status).toBe(401);
      expect(viaBasic.headers.get("www-authenticate")).toBe('Basic realm="Cairn"');
    }
    const { secret, token } = await pat(alice);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { authorization: `Bearer ${secret}` })).status).toBe(200);
    expect((await alice.browser.json("DELETE", `/api/oauth/me/tokens/${token.id}`)).status).toBe(200);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { authorization: `Bearer ${secret}` })).status).toBe(401);
    // Any other Authorization is the app's own business: the cookie decides.
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { authorization: "Bearer some-app-token" })).status).toBe(302);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { authorization: basic("hunter2", "me") })).status).toBe(302);
  });
});

describe("ending access at once", () => {
  it("sign-out ends the cookie at once and clears it for the whole domain", async () => {
    const user = await signUp(app, "gina");
    await addMember(alice, media, user, "member");
    const cookie = await grant(user.browser, `https://media.${DOMAIN}/`);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(200);
    const out = await user.browser.fetch("/api/auth/logout", { method: "POST" });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toContain(`cairn_authz=; Path=/; Domain=${DOMAIN}; HttpOnly; SameSite=Lax; Max-Age=0`);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(302);
    expect((await authRequest(`https://media.${DOMAIN}/`, cookie)).status).toBe(401);
  });

  it("sign-out through the end-session endpoint ends and clears it too", async () => {
    const user = await signUp(app, "lena");
    const cookie = await grant(user.browser, `https://tv.apps.${DOMAIN}/ui`);
    expect((await forwardAuth(`tv.apps.${DOMAIN}`, "/ui", cookie)).status).toBe(200);
    const out = await user.browser.json("POST", "/api/oauth/end_session", {});
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toContain(`cairn_authz=; Path=/; Domain=${DOMAIN}; HttpOnly; SameSite=Lax; Max-Age=0`);
    expect((await forwardAuth(`tv.apps.${DOMAIN}`, "/ui", cookie)).status).toBe(302);
  });

  it("revoking the session from another browser ends its cookie at once", async () => {
    const user = await signUp(app, "hank");
    await addMember(alice, media, user, "member");
    const phone = app.client();
    expect((await phone.json("POST", "/api/auth/login", { login: "hank", password: "correct horse battery staple" })).status).toBe(200);
    const cookie = await grant(phone, `https://media.${DOMAIN}/`);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(200);
    expect((await user.browser.json("DELETE", `/api/oauth/me/sessions/${await sidOf(phone)}`)).status).toBe(200);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(302);
  });

  it("a disabled user is refused at once", async () => {
    const user = await signUp(app, "ivan");
    await addMember(alice, media, user, "member");
    const cookie = await grant(user.browser, `https://media.${DOMAIN}/`);
    const { secret } = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "t", scopes: ["profile"] })).data;
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(200);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { authorization: `Bearer ${secret}` })).status).toBe(200);
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${user.user.id}`, { disabled: true })).status).toBe(200);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(302);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", { authorization: `Bearer ${secret}` })).status).toBe(401);
  });

  it("a membership removed is refused at once, and one added passes at once", async () => {
    const user = await signUp(app, "judy");
    const cookie = await grant(user.browser, `https://media.${DOMAIN}/`);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(403);
    await addMember(alice, media, user, "member");
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(200);
    expect((await alice.bearer("DELETE", `${TEAMS}/${media}/members/${user.user.id}`)).status).toBe(200);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(403);
  });

  it("answers from memory while nothing changed, and reads again exactly after a change", async () => {
    const reads = { cookies: 0, identities: 0 };
    const runtime = app.ctx.forwardAuthCheck;
    const { cookies, identities } = runtime;
    runtime.cookies = (token, read) => cookies(token, () => (reads.cookies++, read()));
    runtime.identities = (id, read) => identities(id, () => (reads.identities++, read()));
    try {
      const cookie = await grant(alice.browser, `https://media.${DOMAIN}/`);
      for (let i = 0; i < 5; i++) expect((await forwardAuth(`media.${DOMAIN}`, `/page/${i}`, cookie)).status).toBe(200);
      expect(reads).toEqual({ cookies: 1, identities: 1 });
      // Any profile change may change a header: everything is read again, once.
      expect((await alice.browser.json("PATCH", "/api/oauth/me", { name: "Alice L." })).status).toBe(200);
      for (let i = 0; i < 3; i++) expect(identityOf(await forwardAuth(`media.${DOMAIN}`, "/", cookie)).name).toBe("Alice L.");
      expect(reads).toEqual({ cookies: 2, identities: 2 });
    } finally {
      runtime.cookies = cookies;
      runtime.identities = identities;
    }
  });
});

describe("continue", () => {
  it("refuses a URL no rule names (no open redirect), changing nothing", async () => {
    const before = await cookieRows();
    for (const url of [
      "https://evil.example/",
      `https://media.${DOMAIN}.evil.example/`,
      `https://evil.example\\@media.${DOMAIN}/`,
      `https://evil.example#@media.${DOMAIN}/`,
      `https://user@media.${DOMAIN}/`,
      `javascript:alert(1)//media.${DOMAIN}/`,
      `//media.${DOMAIN}/`,
      `https://${DOMAIN}/`,
    ]) {
      const res = await alice.browser.fetch(`/api/authz/continue?url=${encodeURIComponent(url)}`);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
    }
    const page = await alice.browser.fetch(`/api/authz/continue?url=${encodeURIComponent("https://evil.example/")}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("not an app this Cairn protects");
    expect(await cookieRows()).toBe(before);
  });

  it("signed out, goes to sign in first; signed in, sets a cookie for the configured domain and goes back", async () => {
    const url = `https://media.${DOMAIN}/movies?id=7`;
    const signedOut = await app.client().fetch(`/api/authz/continue?url=${encodeURIComponent(url)}`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/login?return_to=${encodeURIComponent(url)}`);
    const res = await alice.browser.fetch(`/api/authz/continue?url=${encodeURIComponent(url)}`, {
      headers: { cookie: alice.browser.cookies.has("cairn_session") ? `cairn_session=${alice.browser.cookies.get("cairn_session")}` : "" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(url);
    const [set] = res.headers.getSetCookie();
    expect(set).toMatch(new RegExp(`^cairn_authz=[A-Za-z0-9_-]{43}; Path=/; Domain=${DOMAIN}; HttpOnly; SameSite=Lax; Max-Age=\\d+$`));
    // The cookie lives as long as the Cairn session it came from: 14 days from its last use.
    const maxAge = Number(/Max-Age=(\d+)/.exec(set as string)?.[1]);
    expect(maxAge).toBeGreaterThan(13 * 86_400);
    expect(maxAge).toBeLessThanOrEqual(14 * 86_400);
    // Stored hashed: the value is nowhere in the database.
    const value = /^cairn_authz=([^;]+)/.exec(set as string)?.[1] as string;
    expect(JSON.stringify(await app.ctx.db.select().from(authzSessions).all())).not.toContain(value);
  });

  it("parallel continues of one session each get a working cookie; parallel checks agree", async () => {
    const url = `https://media.${DOMAIN}/`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        alice.browser.fetch(`/api/authz/continue?url=${encodeURIComponent(url)}`, {
          headers: { cookie: `cairn_session=${alice.browser.cookies.get("cairn_session")}` },
        }),
      ),
    );
    const values = answers.map((res) => /^cairn_authz=([^;]+)/.exec(res.headers.getSetCookie()[0] ?? "")?.[1]);
    expect(new Set(values).size).toBe(12);
    const checks = await Promise.all(values.flatMap((v) => [1, 2, 3].map(() => forwardAuth(`media.${DOMAIN}`, "/", { cookie: `cairn_authz=${v}` }))));
    expect(checks.map((r) => r.status)).toEqual(checks.map(() => 200));
    expect(new Set(checks.map((r) => r.headers.get("remote-user")))).toEqual(new Set(["alice"]));
  });
});

describe("header injection", () => {
  it("a header name with CR/LF is refused by the rules API; one written by hand falls back to the default name", async () => {
    const bad = await admin.browser.json("POST", "/api/oauth/admin/forward-auth/rules", {
      host: `x.${DOMAIN}`,
      allow: { everyone: true },
      headers: { user: "X-A\r\nSet-Cookie: a=b" },
    });
    expect(bad.status).toBe(400);
    const id = await addRule({ host: `raw.${DOMAIN}`, allow: { everyone: true } });
    await app.ctx.db
      .update(forwardAuthRules)
      .set({ headers: { user: "X-Evil\r\nSet-Cookie: pwned=1", name: "X Name" } })
      .where(eq(forwardAuthRules.id, id))
      .run();
    const cookie = await grant(bob.browser, `https://raw.${DOMAIN}/`);
    const res = await forwardAuth(`raw.${DOMAIN}`, "/", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("remote-user")).toBe("bob");
    expect(res.headers.get("remote-name")).toBe("bob");
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("a display name with CR/LF or beyond Latin-1 never splits a header: controls dropped, the rest percent-encoded", async () => {
    await app.ctx.db.update(users).set({ name: "Zoë 🌲\r\nSet-Cookie: pwned=1 100%" }).where(eq(users.id, bob.user.id)).run();
    const cookie = await grant(bob.browser, `https://tv.apps.${DOMAIN}/ui`);
    const res = await forwardAuth(`tv.apps.${DOMAIN}`, "/ui", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("remote-name")).toBe("Zo%C3%AB %F0%9F%8C%B2Set-Cookie: pwned=1 100%25");
    expect(decodeURIComponent(res.headers.get("remote-name") as string)).toBe("Zoë 🌲Set-Cookie: pwned=1 100%");
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("POST /api/oauth/admin/forward-auth/test", () => {
  const test = (body: unknown, who: SignedUp = admin) => who.browser.json("POST", "/api/oauth/admin/forward-auth/test", body);

  it("answers what the check would, signed out or as a person (a fresh session without a second factor)", async () => {
    const ruleOf = async (host: string) =>
      ((await admin.browser.json("GET", "/api/oauth/admin/forward-auth/rules")).data.rules as { id: string; host: string }[]).find((r) => r.host === host)?.id;
    const mediaRule = await ruleOf(`media.${DOMAIN}`);
    expect((await test({ url: `https://media.${DOMAIN}/x` })).data).toEqual({
      decision: "sign_in",
      rule_id: mediaRule,
      reason: expect.any(String),
      headers: {},
    });
    expect((await test({ url: `https://media.${DOMAIN}/api/x` })).data).toMatchObject({ decision: "bypass", rule_id: mediaRule, headers: {} });
    expect((await test({ url: `https://media.${DOMAIN}/x`, user_id: bob.user.id })).data).toMatchObject({ decision: "deny", rule_id: mediaRule });
    expect((await test({ url: `https://vault.${DOMAIN}/`, user_id: bob.user.id })).data).toMatchObject({ decision: "mfa" });
    expect((await test({ url: `https://nowhere.${DOMAIN}/` })).data).toEqual({ decision: "no_rule", rule_id: null, reason: expect.any(String), headers: {} });
    expect((await test({ url: `https://tv.apps.${DOMAIN}/ui`, method: "post", user_id: alice.user.id })).data).toMatchObject({ decision: "no_rule" });
    const allowed = await test({ url: `https://ops.${DOMAIN}/`, user_id: carol.user.id });
    expect(allowed.data).toMatchObject({
      decision: "allow",
      headers: { "X-User": "carol", "Remote-Email": "carol@example.com", "X-Groups": "Kids,Media Inc,Media Inc/ops" },
    });
  });

  it("is for admins only; an unknown user is 404, a bad URL 400", async () => {
    expect((await test({ url: `https://media.${DOMAIN}/` }, alice)).status).toBe(403);
    const unknown = await test({ url: `https://media.${DOMAIN}/`, user_id: "no-such-user" });
    expect(unknown.status).toBe(404);
    expect(unknown.data.error).toBe("not_found");
    const bad = await test({ url: "not a url" });
    expect(bad.status).toBe(400);
    expect(bad.data.error).toBe("invalid_request");
  });
});

describe("across processes", () => {
  let second: RunningServer;
  beforeAll(async () => {
    // A second Cairn process on the same database (file, or PostgreSQL: another instance), as a worker is (CAIRN_WORKERS).
    second = await startServer({ CAIRN_DATA: app.dataDir, CAIRN_WORKERS: "1", ...(await storeEnv(app.dataDir, {})) });
  }, 60_000);
  afterAll(() => second?.stop());

  it("a sign-out in one process is seen by the next check in another", async () => {
    const user = await signUp(app, "kate");
    await addMember(alice, media, user, "member");
    const cookie = await grant(user.browser, `https://media.${DOMAIN}/`);
    const there = () =>
      fetch(`${second.url}/api/authz/forward-auth`, {
        headers: { "x-forwarded-proto": "https", "x-forwarded-host": `media.${DOMAIN}`, "x-forwarded-uri": "/", ...cookie },
        redirect: "manual",
      });
    // Both processes hold the answer in memory.
    expect((await there()).status).toBe(200);
    expect((await forwardAuth(`media.${DOMAIN}`, "/", cookie)).status).toBe(200);
    expect((await user.browser.fetch("/api/auth/logout", { method: "POST" })).status).toBe(200);
    expect((await there()).status).toBe(302);
  });
});
