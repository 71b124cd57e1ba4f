import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";

let app: TestApp;
// Addresses come from X-Forwarded-For here, so each test can sign in from an address of its own.
beforeAll(async () => {
  app = await startApp({ env: { CAIRN_TRUST_PROXY: "true" } });
  await signUp(app, "admin");
});
let nextAddress = 1;
/** A browser signed in as the admin, from a fresh address. */
async function adminBrowser() {
  const browser = app.client();
  await browser.json("POST", "/api/auth/login", { login: "admin", password: PASSWORD }, { "x-forwarded-for": `10.1.0.${nextAddress++}` });
  return browser;
}
afterAll(() => app.stop());

describe("login limits under pressure", () => {
  it("a burst of parallel wrong passwords cannot outrun the 10-failure limit", async () => {
    await signUp(app, "burst");
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        app.client().json("POST", "/api/auth/login", { login: "burst", password: "wrong password!" }, { "x-forwarded-for": "10.9.9.9" }),
      ),
    );
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(50);
  });

  it("username and email share one account counter", async () => {
    await signUp(app, "twoways", { email: "twoways@example.com" });
    for (let i = 0; i < 10; i++)
      await app.client().json("POST", "/api/auth/login", { login: "twoways", password: `wrong-${i}-pass` }, { "x-forwarded-for": `10.2.0.${i}` });
    const byEmail = await app.client().json("POST", "/api/auth/login", { login: "twoways@example.com", password: PASSWORD }, { "x-forwarded-for": "10.2.1.1" });
    expect(byEmail.status).toBe(429);
  });
});

describe("teams: moving a team", () => {
  it("is for owners only, so a co-owner cannot become owner by moving the team under their own", async () => {
    const owner = await signUp(app, "realowner");
    const carol = await signUp(app, "carolco");
    const parent = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "Parent" })).data.team.id;
    await owner.browser.json("POST", `/api/oauth/me/teams/${parent}/members`, { username: "carolco", role: "co-owner" });
    const evil = (await carol.browser.json("POST", "/api/oauth/me/teams", { name: "Evil" })).data.team.id;
    const moved = await carol.browser.json("PATCH", `/api/oauth/me/teams/${parent}`, { parent_id: evil });
    expect(moved.status).toBe(403);
    expect((await carol.browser.json("GET", `/api/oauth/me/teams/${parent}`)).data.team.role).toBe("co-owner");
    expect((await owner.browser.json("PATCH", `/api/oauth/me/teams/${parent}`, { name: "Renamed by owner" })).status).toBe(200);
  });
});

describe("registration closed", () => {
  it("refuses even a valid invitation", async () => {
    const admin = await adminBrowser();
    await updateSiteConfig(app.ctx, { registration: "invite" });
    const code = (await admin.json("POST", "/api/oauth/admin/invites", {})).data.code;
    await updateSiteConfig(app.ctx, { registration: "closed" });
    const res = await app.client().json("POST", "/api/auth/register", { username: "latecomer", email: "late@example.com", password: PASSWORD, invite: code });
    expect(res.status).toBe(403);
  });
});

describe("hostile input never yields a 5xx", () => {
  it("a malformed session cookie is no cookie", async () => {
    for (const path of ["/api/auth/session", "/api/oauth/me", "/api/oauth/authorize?client_id=x"]) {
      const res = await fetch(`${app.url}${path}`, { headers: { cookie: "cairn_session=%zz%" } });
      expect(res.status).toBeLessThan(500);
    }
  });

  it("fractional or huge paging values are a 400", async () => {
    const admin = await adminBrowser();
    for (const q of ["limit=1.5", "offset=1.5", "offset=99999999999999999999999"])
      expect((await admin.json("GET", `/api/oauth/admin/users?${q}`)).status).toBe(400);
    expect((await admin.json("GET", "/api/oauth/admin/audit?limit=2.5")).status).toBe(400);
  });

  it("a body nested past the stack, or over 1 MiB, is refused cleanly", async () => {
    const deep = "[".repeat(100_000);
    const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: deep });
    expect(res.status).toBe(400);
    const huge = await fetch(`${app.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "x", password: "y".repeat(2 * 1024 * 1024) }),
    }).then(
      (r) => r.status,
      () => 413,
    );
    expect(huge).toBe(413);
  });
});

describe("small rules", () => {
  it("counts password length in characters, and refuses a blank one", async () => {
    await updateSiteConfig(app.ctx, { registration: "open" });
    expect((await app.client().json("POST", "/api/auth/register", { username: "emoji", email: "emoji@example.com", password: "😀😀😀😀😀" })).status).toBe(400);
    expect((await app.client().json("POST", "/api/auth/register", { username: "blank", email: "blank@example.com", password: " ".repeat(12) })).status).toBe(
      400,
    );
  });

  it("admin search finds names with _ and %", async () => {
    await signUp(app, "under_score");
    const admin = await adminBrowser();
    expect((await admin.json("GET", "/api/oauth/admin/users?q=under_")).data.users.map((u: { username: string }) => u.username)).toEqual(["under_score"]);
  });

  it("a token with profile but not email does not see the email", async () => {
    const u = await signUp(app, "private");
    const pat = (await u.browser.json("POST", "/api/oauth/me/tokens", { name: "p", scopes: ["profile"] })).data.secret;
    const me = await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${pat}` });
    expect(me.data.user.username).toBe("private");
    expect(me.data.user.email).toBeUndefined();
    const both = (await u.browser.json("POST", "/api/oauth/me/tokens", { name: "pe", scopes: ["profile", "email"] })).data.secret;
    expect((await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${both}` })).data.user.email).toBe("private@example.com");
  });
});

describe("password checks after sign-in", () => {
  it("count wrong guesses like failed sign-ins", async () => {
    const u = await signUp(app, "guessed");
    for (let i = 0; i < 10; i++)
      expect(
        (await u.browser.json("POST", "/api/oauth/me/password", { current_password: `wrong-${i}-guess`, new_password: "a brand new secret" })).status,
      ).toBe(400);
    const limited = await u.browser.json("POST", "/api/oauth/me/password", { current_password: PASSWORD, new_password: "a brand new secret" });
    expect(limited.status).toBe(429);
  });
});

describe("CORS for browser apps", () => {
  it("discovery, JWKS and the token endpoint allow any origin; preflight answers", async () => {
    for (const path of ["/.well-known/openid-configuration", "/.well-known/jwks.json"])
      expect((await fetch(`${app.url}${path}`)).headers.get("access-control-allow-origin")).toBe("*");
    const pre = await fetch(`${app.url}/api/oauth/userinfo`, {
      method: "OPTIONS",
      headers: { origin: "https://spa.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
    const token = await fetch(`${app.url}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=x",
    });
    expect(token.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("GET /api/auth/session", () => {
  it("answers 401 to a personal access token: a token is not a session", async () => {
    const u = await signUp(app, "tokenonly");
    const pat = (await u.browser.json("POST", "/api/oauth/me/tokens", { name: "t", scopes: ["profile"] })).data.secret;
    expect((await app.client().json("GET", "/api/auth/session", undefined, { authorization: `Bearer ${pat}` })).status).toBe(401);
    expect((await u.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });
});
