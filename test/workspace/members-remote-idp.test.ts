import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { MEMBERS_FRESH_MS } from "../../src/workspace/members/team-members.service.ts";
import { CONFIRM_EVERY_MS, FRESH_ON_DEMAND_MS } from "../../src/workspace/session/session-check.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import type { jarFetch } from "../helpers/cookie-jar.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

// Instance A is the identity provider; instance B runs the workspace with A named in its app
// config. One clock for both, so tokens A issues expire when B thinks they do.
const clock = manualClock();
const HOUR = 3600_000;
let idp: TestApp;
let ws: TestApp;
let idpRunning = true;
let alice: SignedUp;
let aliceOnWs: ReturnType<typeof jarFetch>;
let clientId: string;
let teamId: string;

const pathOf = (app: TestApp, location: string) => {
  const url = new URL(location, app.url);
  return url.pathname + url.search;
};

beforeAll(async () => {
  idp = await startApp({ overrides: { clock } });
  ws = await startApp({ overrides: { clock } });
  alice = await signUp(idp, "alice", { name: "Alice" });
  teamId = (await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team.id;
  const client = await alice.browser.json("POST", "/api/oauth/me/clients", {
    name: "Workspace on B",
    redirect_uris: [{ uri: `${ws.url}/api/workspace/callback`, match: "equals" }],
    public: true,
    scopes: ["openid", "profile", "email", "teams:read", "offline_access"],
    oidc_fields: ["teams"],
  });
  expect(client.status).toBe(201);
  clientId = client.data.client_id;
  const setup = await ws.json("POST", "/api/init/setup", {
    config: { idp_base_url: idp.url, idp_client_id: clientId, idp_redirect_uri: `${ws.url}/api/workspace/callback`, use_pkce: true },
  });
  expect(setup.status).toBe(200);
  // Alice signs in to B's workspace: B's login, A's authorize and consent, B's callback.
  aliceOnWs = ws.client();
  const authorize = (await aliceOnWs.fetch("/api/workspace/login?return_to=/w")).headers.get("location") as string;
  expect(authorize).toStartWith(`${idp.url}/api/oauth/authorize?`);
  const consent = (await alice.browser.fetch(pathOf(idp, authorize))).headers.get("location") as string;
  const interaction = new URL(consent, idp.url).searchParams.get("interaction") as string;
  const callback = (await alice.browser.json("POST", `/api/oauth/interaction/${interaction}`, { decision: "approve" })).data.redirect_to as string;
  expect(callback).toStartWith(`${ws.url}/api/workspace/callback?`);
  expect((await aliceOnWs.fetch(pathOf(ws, callback))).status).toBe(302);
});
afterAll(async () => {
  await ws.stop();
  if (idpRunning) await idp.stop();
});

const session = async () => {
  const [row] = await ws.ctx.db.all<Record<string, any>>(sql`SELECT * FROM ws_sessions WHERE user_id = ${alice.user.id}`);
  if (!row) throw new Error("alice has no workspace session");
  return row;
};
const refreshTokenOf = (row: Record<string, any>) => ws.ctx.secrets.open(row.idp_refresh_token_sealed, `ws_idp_refresh_token:${row.id}`);
const usernames = async () => {
  const res = await aliceOnWs.json("GET", `/api/teams/${teamId}/members`);
  expect(res.status).toBe(200);
  return (res.data.members as { username: string }[]).map((m) => m.username);
};
const joinAtIdp = async (username: string) => {
  await signUp(idp, username);
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username, role: "member" })).status).toBe(201);
};
const warnings = () => ws.logs.filter((line) => line.level === "warn" && String(line.msg).startsWith("workspace members:"));
const sessionWarnings = () => ws.logs.filter((line) => line.level === "warn" && String(line.msg).startsWith("workspace session:"));
const teamIdsOnWs = async () => {
  const me = await aliceOnWs.json("GET", "/api/workspace/me");
  expect(me.status).toBe(200);
  return (me.data.teams as { id: string }[]).map((t) => t.id);
};

describe("ARCHITECTURE section 4: members through another Cairn's team API", () => {
  it("keeps the access and refresh tokens from sign-in, sealed", async () => {
    const row = await session();
    expect(row.idp_access_token_sealed).toStartWith("v1.");
    expect(row.idp_refresh_token_sealed).toStartWith("v1.");
    expect(row.idp_access_expires_at).toBe(clock.now() + HOUR);
    expect(row.idp_refresh_token_sealed).not.toContain(refreshTokenOf(row));
  });

  it("lists the IdP team's members, including one who never used the workspace", async () => {
    await joinAtIdp("bob");
    expect(await usernames()).toEqual(["alice", "bob"]);
  });

  it("renews an expired access token with the refresh token and stores the rotated pair", async () => {
    const before = await session();
    await joinAtIdp("carol");
    clock.advance(HOUR + MEMBERS_FRESH_MS);
    expect(await usernames()).toEqual(["alice", "bob", "carol"]);
    const after = await session();
    expect(after.idp_access_expires_at).toBe(clock.now() + HOUR);
    expect(refreshTokenOf(after)).not.toBe(refreshTokenOf(before));
    expect(warnings()).toEqual([]);
  });

  it("learns a team created, and one deleted, at the IdP after sign-in from its team API, without signing in again", async () => {
    clock.advance(FRESH_ON_DEMAND_MS);
    const created = await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Allotment" });
    expect(created.status).toBe(201);
    const newTeamId = created.data.team.id;
    expect(await teamIdsOnWs()).toContain(newTeamId);
    expect((await aliceOnWs.json("GET", `/api/teams/${newTeamId}/sets`)).status).toBe(200);
    expect((await alice.browser.json("DELETE", `/api/oauth/me/teams/${newTeamId}`)).status).toBe(200);
    clock.advance(FRESH_ON_DEMAND_MS);
    expect(await teamIdsOnWs()).toEqual([teamId]);
    expect((await aliceOnWs.json("GET", `/api/teams/${newTeamId}/sets`)).status).toBe(403);
  });

  it("ends the workspace session within a minute when the IdP no longer honours its grant (consent revoked); the dead tokens are dropped", async () => {
    expect((await alice.browser.json("DELETE", `/api/oauth/me/consents/${clientId}`)).status).toBe(200);
    await joinAtIdp("dave");
    clock.advance(CONFIRM_EVERY_MS - 1);
    expect(await usernames()).toEqual(["alice", "bob", "carol"]);
    clock.advance(1);
    expect((await aliceOnWs.json("GET", `/api/teams/${teamId}/members`)).status).toBe(401);
    expect((await session()).revoked_at).not.toBeNull();
    expect(await session()).toMatchObject({ idp_access_token_sealed: null, idp_refresh_token_sealed: null });
  });

  it("answers from the cache, with a warning, when the IdP is down", async () => {
    // Sign in again for fresh tokens, then take the IdP away.
    const authorize = (await aliceOnWs.fetch("/api/workspace/login?return_to=/w")).headers.get("location") as string;
    let next = (await alice.browser.fetch(pathOf(idp, authorize))).headers.get("location") as string;
    if (next.startsWith("/consent")) {
      const interaction = new URL(next, idp.url).searchParams.get("interaction") as string;
      next = (await alice.browser.json("POST", `/api/oauth/interaction/${interaction}`, { decision: "approve" })).data.redirect_to;
    }
    expect((await aliceOnWs.fetch(pathOf(ws, next))).status).toBe(302);
    clock.advance(MEMBERS_FRESH_MS);
    expect(await usernames()).toEqual(["alice", "bob", "carol", "dave"]);
    await idp.stop();
    idpRunning = false;
    clock.advance(MEMBERS_FRESH_MS);
    const before = warnings().length;
    expect(await usernames()).toEqual(["alice", "bob", "carol", "dave"]);
    expect(warnings()).toHaveLength(before + 1);
    // The outbound error's message is generic; the log gets what actually happened.
    expect(String(warnings().at(-1)?.error)).toContain("ECONNREFUSED");
    // Within the retry pause the sick IdP is not asked again.
    expect(await usernames()).toEqual(["alice", "bob", "carol", "dave"]);
    expect(warnings()).toHaveLength(before + 1);
    // Not by a page load either, which otherwise asks for an answer a few seconds old.
    const asked = sessionWarnings().length;
    expect(asked).toBeGreaterThan(0);
    clock.advance(FRESH_ON_DEMAND_MS);
    expect(await teamIdsOnWs()).toEqual([teamId]);
    expect(sessionWarnings()).toHaveLength(asked);
  });
});
