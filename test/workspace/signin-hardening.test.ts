import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { MAX_PENDING_STARTS } from "../../src/access/start-guard.ts";
import { safeReturnTo } from "../../src/shared/return-to.ts";
import { CONFIRM_EVERY_MS } from "../../src/workspace/session/session-check.ts";
import { wsLoginStates } from "../../src/workspace/storage/session.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { signUp } from "../helpers/identity.ts";
import { freePort } from "../helpers/temp.ts";
import { ensureSetup, teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

// Issue 18 findings 4, 5, 8, 9 and 11: the workspace's own sign-in and sessions.
const clock = manualClock();
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  await signUp(app, "admin");
  await ensureSetup(app);
});
afterAll(() => app.stop());

/** The workspace's client id at the IdP, as setup stored it (the app_config setting, JSON). */
const storedClientId = async () => {
  const [row] = await app.ctx.db.all<{ value: string }>(sql`SELECT value FROM settings WHERE key = 'app_config'`);
  return (JSON.parse(row?.value ?? "{}") as { idp_client_id: string }).idp_client_id;
};

const loginFrom = (address: string, returnTo = "/w") =>
  app.client().fetch(`/api/workspace/login?return_to=${encodeURIComponent(returnTo)}`, { headers: { "x-forwarded-for": address } });

describe("finding 5: the return address after sign-in", () => {
  it.each([
    ["/\t/evil.example", "/w"],
    ["/\n/evil.example", "/w"],
    ["//evil.example", "/w"],
    ["/\\evil.example", "/w"],
    ["https://evil.example/", "/w"],
    ["/w/x\r\nset-cookie: a=b", "/w"],
    ["/w/\u0000", "/w"],
    ["/w/ünïcödé ✓", "/w/%C3%BCn%C3%AFc%C3%B6d%C3%A9%20%E2%9C%93"],
    ["/w/household?tab=1#top", "/w/household?tab=1#top"],
  ])("reads %p as a browser would and keeps only a path of this site", (raw, expected) => {
    expect(safeReturnTo(raw, app.url)).toBe(expected);
  });

  it("never answers a 5xx or sends the browser off-site, whatever return_to holds", async () => {
    for (const raw of ["/\t/evil.example", "/%09/evil.example", "/w/\r\nx", "/w/\u0000", "/w/ü", "/".repeat(5000)]) {
      const res = await loginFrom(`10.5.0.${raw.length % 200}`, raw);
      expect(res.status).toBe(302);
      const state = new URL(res.headers.get("location") as string).searchParams.get("state") as string;
      const [stored] = await app.ctx.db.all<{ return_to: string }>(sql`SELECT return_to FROM ws_login_states WHERE state = ${state}`);
      if (!stored) throw new Error("the sign-in start was not stored");
      expect(new URL(stored.return_to, app.url).origin).toBe(app.url);
      expect(stored.return_to.length).toBeLessThanOrEqual(1024);
    }
  });
});

describe("finding 8: workspace session ids", () => {
  it("are stored as the SHA-256 of the cookie's value, never the value itself", async () => {
    const { user } = await teamOwner(app, "hash");
    const cookie = user.browser.cookies.get("cairn_ws") as string;
    const rows = await app.ctx.db.all<{ id: string }>(sql`SELECT id FROM ws_sessions`);
    expect(rows.map((r) => r.id)).not.toContain(cookie);
    expect(rows.map((r) => r.id)).toContain(createHash("sha256").update(cookie).digest("hex"));
  });
});

describe("finding 9: anonymous starts are bounded", () => {
  const pending = async () => (await app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ws_login_states`))[0]?.n;

  it("limits workspace sign-ins started from one address, writing nothing once refused", async () => {
    app.ctx.config.trustProxy = true;
    try {
      for (let i = 0; i < 30; i++) expect((await loginFrom("10.9.0.1")).status).toBe(302);
      const before = await pending();
      const refused = await loginFrom("10.9.0.1");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await pending()).toBe(before);
      expect((await loginFrom("10.9.0.2")).status).toBe(302);
      // Another address of the same IPv6 /64 counts with it.
      for (let i = 0; i < 30; i++) await loginFrom(`2001:db8:1:2::${i + 1}`);
      expect((await loginFrom("2001:db8:1:2:ffff::1")).status).toBe(429);
    } finally {
      app.ctx.config.trustProxy = false;
    }
  });

  it("caps the pending sign-ins in all, so a flood from many addresses cannot grow the database", async () => {
    const flood = Array.from({ length: MAX_PENDING_STARTS - ((await pending()) ?? 0) }, (_, i) => ({
      state: `flood-${i}`,
      nonce: "n",
      returnTo: "/w",
      expiresAt: clock.now() + 600_000,
    }));
    for (let i = 0; i < flood.length; i += 500)
      await app.ctx.db
        .insert(wsLoginStates)
        .values(flood.slice(i, i + 500))
        .run();
    const refused = await app.client().fetch("/api/workspace/login");
    expect(refused.status).toBe(429);
    expect(await pending()).toBe(MAX_PENDING_STARTS);
    // Expired ones do not count.
    clock.advance(601_000);
    expect((await app.client().fetch("/api/workspace/login")).status).toBe(302);
  });

  it("limits signed-out authorization requests and passkey options per address", async () => {
    app.ctx.config.trustProxy = true;
    try {
      const client = { id: await storedClientId() };
      const authorize = () =>
        app
          .client()
          .fetch(
            `/api/oauth/authorize?response_type=code&scope=openid&client_id=${client.id}&redirect_uri=${encodeURIComponent(`${app.url}/api/workspace/callback`)}&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`,
            { headers: { "x-forwarded-for": "10.8.0.1" } },
          );
      for (let i = 0; i < 60; i++) expect((await authorize()).status).toBe(302);
      expect((await authorize()).status).toBe(429);
      const options = () => app.client().json("POST", "/api/auth/passkey/options", undefined, { "x-forwarded-for": "10.8.0.2" });
      for (let i = 0; i < 30; i++) expect((await options()).status).toBe(200);
      const refused = await options();
      expect(refused.status).toBe(429);
      expect(refused.data.error).toBe("too_many_attempts");
    } finally {
      app.ctx.config.trustProxy = false;
    }
  });
});

describe("finding 4: the IdP's membership governs every request within a stated bound", () => {
  it("a member removed at the IdP loses the team within a minute, even when nobody else is active", async () => {
    const { user: owner, team } = await teamOwner(app, "olga");
    const pete = await signUp(app, "pete");
    expect((await owner.bearer("POST", `/api/oauth/me/teams/${team.id}/members`, { username: "pete", role: "admin" })).status).toBe(201);
    await workspaceSignIn(app, pete);
    const sets = () => pete.browser.json("GET", `/api/teams/${team.id}/sets`);
    const permissions = async () => (await pete.browser.json("GET", `/api/teams/${team.id}/permissions`)).status;
    expect((await sets()).status).toBe(200);
    expect(await permissions()).toBe(200);

    // Demoted at the IdP: the new role governs within the bound.
    expect((await owner.bearer("PATCH", `/api/oauth/me/teams/${team.id}/members/${pete.user.id}`, { role: "member" })).status).toBe(200);
    clock.advance(CONFIRM_EVERY_MS);
    expect((await pete.browser.json("GET", "/api/workspace/me")).data.teams.find((t: { id: string }) => t.id === team.id).role).toBe("member");

    // Removed at the IdP: no access to the team past the bound; at once when the IdP is this instance (issue 43).
    expect((await owner.bearer("DELETE", `/api/oauth/me/teams/${team.id}/members/${pete.user.id}`)).status).toBe(200);
    expect((await sets()).status).toBe(403);
    clock.advance(CONFIRM_EVERY_MS);
    expect((await sets()).status).toBe(403);
  });

  it("a session whose IdP grant is gone (consent revoked) ends within a minute", async () => {
    const { user: quinn, team } = await teamOwner(app, "quinn");
    const clientId = await storedClientId();
    expect((await quinn.browser.json("DELETE", `/api/oauth/me/consents/${clientId}`)).status).toBe(200);
    clock.advance(CONFIRM_EVERY_MS);
    expect((await quinn.browser.json("GET", `/api/teams/${team.id}/sets`)).status).toBe(401);
  });
});

describe("finding 11: an unreachable identity provider", () => {
  it("gives a clear page, not a 500", async () => {
    const other = await startApp();
    try {
      await other.json("POST", "/api/init/setup", {
        config: {
          idp_base_url: `http://127.0.0.1:${freePort()}`,
          idp_client_id: "nobody",
          idp_redirect_uri: `${other.url}/api/workspace/callback`,
          use_pkce: true,
        },
      });
      const res = await jarFetch(other.url).fetch("/api/workspace/login");
      expect(res.status).toBe(424);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(await res.text()).toContain("The identity provider cannot be reached");
    } finally {
      await other.stop();
    }
  });
});
