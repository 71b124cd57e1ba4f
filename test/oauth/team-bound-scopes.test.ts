import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser, discover, REDIRECT, registerApp } from "../helpers/oauth.ts";

let app: TestApp;
let owner: SignedUp;
let teamA: string;
let teamB: string;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  teamA = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "A" })).data.team.id;
  teamB = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "B" })).data.team.id;
  await signUp(app, "member1");
  await owner.browser.json("POST", `/api/oauth/me/teams/${teamA}/members`, { username: "member1", role: "member" });
});
afterAll(() => app.stop());

async function tokenFor(scope: string, teamId: string) {
  const registered = await registerApp(owner, { scopes: ["openid", "team:read", "team:member:read", "team:member:write"] });
  const config = await discover(app, registered.client_id, registered.client_secret);
  const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope, state: "s" });
  const callback = await authorizeInBrowser(owner, url, "approve", { team_id: teamId });
  return client.authorizationCodeGrant(config, callback, { expectedState: "s" });
}

describe("spec 1 section 2.3: single-team scopes", () => {
  it("are bound at consent to the chosen team, and only work on that team's endpoints", async () => {
    const tokens = await tokenFor("openid team:read team:member:read", teamA);
    expect(tokens.scope?.split(" ").sort()).toEqual(["openid", `team:${teamA}:member:read`, `team:${teamA}:read`].sort());
    const call = (path: string, method = "GET", body?: unknown) => app.client().json(method, path, body, { authorization: `Bearer ${tokens.access_token}` });
    expect((await call(`/api/oauth/me/team/${teamA}`)).data.team.name).toBe("A");
    expect((await call(`/api/oauth/me/team/${teamA}/members`)).data.members.map((m: { username: string }) => m.username).sort()).toEqual(["member1", "owner"]);
    const other = await call(`/api/oauth/me/team/${teamB}`);
    expect(other.status).toBe(403);
    expect(other.data.error).toBe("insufficient_scope");
    expect(other.headers.get("www-authenticate")).toContain("insufficient_scope");
    // Read scopes do not write, and the aggregate API needs the aggregate scopes.
    expect((await call(`/api/oauth/me/team/${teamA}/members`, "POST", { username: "member1", role: "admin" })).status).toBe(403);
    expect((await call("/api/oauth/me/teams")).status).toBe(403);
    // The ID token carries the flat claims for that team only.
    const claims = tokens.claims() as Record<string, unknown>;
    expect(claims[`in_team_${teamA}`]).toBe(true);
    expect(claims[`role_in_team_${teamA}`]).toBe("owner");
    expect(claims[`in_team_${teamB}`]).toBeUndefined();
  });

  it("member:write changes roles within the granting user's cap", async () => {
    const tokens = await tokenFor("team:member:write", teamA);
    const member1 = (await owner.browser.json("GET", `/api/oauth/me/teams/${teamA}`)).data.members.find((m: { username: string }) => m.username === "member1");
    const call = (method: string, path: string, body?: unknown) => app.client().json(method, path, body, { authorization: `Bearer ${tokens.access_token}` });
    expect((await call("PATCH", `/api/oauth/me/team/${teamA}/members/${member1.user_id}`, { role: "admin" })).data.member.role).toBe("admin");
    expect((await call("PATCH", `/api/oauth/me/team/${teamB}/members/${member1.user_id}`, { role: "admin" })).status).toBe(403);
  });

  it("the team picker offers only teams the user administers, and refuses another", async () => {
    const registered = await registerApp(owner, { scopes: ["openid", "team:read"] });
    const config = await discover(app, registered.client_id, registered.client_secret);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid team:read", state: "s" });
    const member = await signUp(app, "member2");
    await owner.browser.json("POST", `/api/oauth/me/teams/${teamB}/members`, { username: "member2", role: "member" });
    const res = await member.browser.fetch(url.pathname + url.search);
    const id = new URL(res.headers.get("location") as string, app.url).searchParams.get("interaction") as string;
    const info = await member.browser.json("GET", `/api/oauth/interaction/${id}`);
    expect(info.data).toMatchObject({ team_picker: true, eligible_teams: [] });
    expect((await member.browser.json("POST", `/api/oauth/interaction/${id}`, { decision: "approve", team_id: teamB })).status).toBe(400);
  });
});
