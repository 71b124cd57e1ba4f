import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { PASSWORD, signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser, discover, REDIRECT, registerApp } from "../helpers/oauth.ts";
import { oauthErrorOf } from "./oauth.fixtures.ts";

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

const TEAM_SCOPES = ["openid", "team:read", "team:member:read", "team:member:write", "team:member:profile:read"];

/** A code flow through openid-client in which `who` binds the single-team scopes to `teamId`. */
async function tokenFor(scope: string, teamId: string, who: SignedUp = owner, name = "Test app") {
  const registered = await registerApp(owner, { name, scopes: TEAM_SCOPES });
  const config = await discover(app, registered.client_id, registered.client_secret);
  const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope, state: "s" });
  const callback = await authorizeInBrowser(who, url, "approve", { team_id: teamId });
  return Object.assign(await client.authorizationCodeGrant(config, callback, { expectedState: "s" }), { config, client_id: registered.client_id });
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

type AuditRow = { action: string; actor_user_id: string | null; team_id: string; target_user_id: string | null; details: Record<string, unknown> };
const grantsOn = async (teamId: string): Promise<AuditRow[]> =>
  (await owner.browser.json("GET", `/api/oauth/me/teams/${teamId}/audit`)).data.entries.filter((e: AuditRow) => e.action === "team.access_granted");

describe("spec 1 section 2.3 rule 6: each single-team grant is audited apart from the consent", () => {
  it("writes an entry on the chosen team's log with the app, the granting user and the permissions, which the team's owners read", async () => {
    const admin1 = await signUp(app, "admin1");
    await owner.browser.json("POST", `/api/oauth/me/teams/${teamA}/members`, { username: "admin1", role: "admin" });
    const before = { a: (await grantsOn(teamA)).length, b: (await grantsOn(teamB)).length };
    const tokens = await tokenFor("openid team:read team:member:read", teamA, admin1, "Grafana");
    const entries = await grantsOn(teamA);
    expect(entries).toHaveLength(before.a + 1);
    expect(entries[0]).toMatchObject({
      actor_user_id: admin1.user.id,
      team_id: teamA,
      target_user_id: null,
      details: { client_id: tokens.client_id, client_name: "Grafana", permissions: ["read", "member:read"] },
    });
    // Only the chosen team's log has it; the consent record is kept as well, on its own.
    expect(await grantsOn(teamB)).toHaveLength(before.b);
    const consents = (await admin1.browser.json("GET", "/api/oauth/me/consents")).data.consents;
    expect(consents.find((c: { client_id: string }) => c.client_id === tokens.client_id).scopes).toContain(`team:${teamA}:read`);
  });

  it("each grant is its own entry, even of the same permissions to the same app", async () => {
    const registered = await registerApp(owner, { name: "Twice", scopes: TEAM_SCOPES });
    const config = await discover(app, registered.client_id, registered.client_secret);
    const before = (await grantsOn(teamB)).length;
    for (let i = 0; i < 2; i++) {
      const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "team:member:write", state: "s" });
      await client.authorizationCodeGrant(config, await authorizeInBrowser(owner, url, "approve", { team_id: teamB }), { expectedState: "s" });
    }
    const entries = (await grantsOn(teamB)).slice(0, 2);
    expect((await grantsOn(teamB)).length).toBe(before + 2);
    for (const e of entries) expect(e.details).toEqual({ client_id: registered.client_id, client_name: "Twice", permissions: ["member:write"] });
  });

  it("is one write with the consent and the code: an approval whose code cannot be issued leaves neither", async () => {
    const registered = await registerApp(owner, { name: "Moved away", scopes: TEAM_SCOPES });
    const config = await discover(app, registered.client_id, registered.client_secret);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid team:read", state: "s" });
    const res = await owner.browser.fetch(url.pathname + url.search);
    const id = new URL(res.headers.get("location") as string, app.url).searchParams.get("interaction") as string;
    // While the person reads the consent page, the app's owner moves it to another redirect URI.
    const moved = await owner.browser.json("PATCH", `/api/oauth/me/clients/${registered.client_id}`, {
      name: "Moved away",
      redirect_uris: [{ uri: "https://elsewhere.example.com/cb", match: "equals" }],
    });
    expect(moved.status).toBe(200);
    const before = (await grantsOn(teamA)).length;
    const answer = await owner.browser.json("POST", `/api/oauth/interaction/${id}`, { decision: "approve", team_id: teamA });
    expect(answer.status).toBe(400);
    expect(answer.data.error).toBe("invalid_request");
    expect(await grantsOn(teamA)).toHaveLength(before);
    const consents = (await owner.browser.json("GET", "/api/oauth/me/consents")).data.consents;
    expect(consents.some((c: { client_id: string }) => c.client_id === registered.client_id)).toBe(false);
  });

  it("of 50 identical approvals at once, one grants, and the log holds one entry", async () => {
    const registered = await registerApp(owner, { name: "Racer", scopes: TEAM_SCOPES });
    const config = await discover(app, registered.client_id, registered.client_secret);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "team:read", state: "s" });
    const res = await owner.browser.fetch(url.pathname + url.search);
    const id = new URL(res.headers.get("location") as string, app.url).searchParams.get("interaction") as string;
    const before = (await grantsOn(teamA)).length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => owner.browser.json("POST", `/api/oauth/interaction/${id}`, { decision: "approve", team_id: teamA })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.every((a) => a.status === 200 || a.status === 404)).toBe(true);
    expect(await grantsOn(teamA)).toHaveLength(before + 1);
  });

  it("a consent without single-team scopes writes no team entry", async () => {
    const registered = await registerApp(owner, { name: "Plain", scopes: ["openid", "profile"] });
    const config = await discover(app, registered.client_id, registered.client_secret);
    const before = [(await grantsOn(teamA)).length, (await grantsOn(teamB)).length];
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid profile", state: "s" });
    await client.authorizationCodeGrant(config, await authorizeInBrowser(owner, url), { expectedState: "s" });
    expect([(await grantsOn(teamA)).length, (await grantsOn(teamB)).length]).toEqual(before);
  });
});

describe("team:member:profile:read: the profiles of one team's members", () => {
  const profilePath = (teamId: string, userId: string) => new URL(`${app.url}/api/oauth/me/team/${teamId}/members/${userId}/profile`);
  const fetchWith = (tokens: { config: client.Configuration; access_token: string }, url: URL) =>
    client.fetchProtectedResource(tokens.config, tokens.access_token, url, "GET");

  it("reads a member's name, username and picture (the profile scope's fields, no email) on the bound team only", async () => {
    const member1 = (await owner.browser.json("GET", `/api/oauth/me/teams/${teamA}`)).data.members.find((m: { username: string }) => m.username === "member1");
    const m1 = await app.client().json("POST", "/api/auth/login", { login: "member1", password: PASSWORD });
    const edit = await app
      .client()
      .json("PATCH", "/api/oauth/me", { name: "Member One", picture: "https://pics.example.com/m1.png" }, { authorization: `Bearer ${m1.data.session_token}` });
    expect(edit.status).toBe(200);

    const tokens = await tokenFor("team:member:profile:read", teamA);
    expect(tokens.scope).toBe(`team:${teamA}:member:profile:read`);
    const res = await fetchWith(tokens, profilePath(teamA, member1.user_id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      profile: { user_id: member1.user_id, username: "member1", name: "Member One", picture: "https://pics.example.com/m1.png" },
    });
    // The granting user's own profile too: they are a member.
    expect(((await (await fetchWith(tokens, profilePath(teamA, owner.user.id))).json()) as { profile: { username: string } }).profile.username).toBe("owner");

    // Team B is not the bound team: 403 insufficient_scope, whoever is asked about.
    expect(await oauthErrorOf(fetchWith(tokens, profilePath(teamB, owner.user.id)))).toEqual({ error: "insufficient_scope", status: 403 });
  });

  it("someone who is not a member of the team is the same 404 as no one; the list scopes do not read profiles", async () => {
    const outsider = await signUp(app, "outsider");
    const tokens = await tokenFor("team:member:profile:read", teamA);
    for (const userId of [outsider.user.id, "00000000-0000-4000-8000-000000000000", "not-a-user"]) {
      const res = await fetchWith(tokens, profilePath(teamA, userId));
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe("not_found");
    }
    // team:member:read lists members but is not their profiles.
    const lister = await tokenFor("team:member:read", teamA);
    expect(await oauthErrorOf(fetchWith(lister, profilePath(teamA, owner.user.id)))).toEqual({ error: "insufficient_scope", status: 403 });
  });

  it("a sub-team's profiles include members who hold their role through the parent team", async () => {
    const child = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "A child", parent_id: teamA })).data.team.id;
    const member1 = (await owner.browser.json("GET", `/api/oauth/me/teams/${teamA}`)).data.members.find((m: { username: string }) => m.username === "member1");
    const tokens = await tokenFor("team:member:profile:read", child);
    const res = await fetchWith(tokens, profilePath(child, member1.user_id));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { profile: { username: string } }).profile.username).toBe("member1");
  });
});
