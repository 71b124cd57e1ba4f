import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, sql } from "drizzle-orm";
import * as client from "openid-client";
import { auditLog } from "../../src/identity/audit/audit.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signInWithTotp, signUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { authorizeCode, confidentialApp, oauthErrorOf, pkce, postForm, REDIRECT, type RegisteredApp, TOKEN } from "../oauth/oauth.fixtures.ts";
import { addMember, makeTeam, patClient, snapshotTeams, TEAMS } from "./teams.fixtures.ts";

const SITE = "/api/oauth/site";
const PHRASE = "grant site access";
const SITE_SCOPES = [
  "site:user:read",
  "site:user:write",
  "site:user:delete",
  "site:team:read",
  "site:team:write",
  "site:team:delete",
  "site:config:read",
  "site:config:write",
  "site:token:revoke",
];

const clock = manualClock();
let app: TestApp;
let admin: SignedUp;
/** The admin in a browser signed in with password and TOTP (`acr: mfa`): only such a sign-in grants site scopes. */
let adminMfa: SignedUp;
let alice: SignedUp;
let bob: SignedUp;
let carol: SignedUp;
let rp: RegisteredApp;
const team: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
  alice = await signUp(app, "alice");
  bob = await signUp(app, "bob");
  carol = await signUp(app, "carol");
  adminMfa = { ...admin, browser: (await signInWithTotp(app, admin, clock.now)).browser };
  rp = await confidentialApp(app, admin, { scopes: ["openid", "offline_access", "teams:read", "team:read", ...SITE_SCOPES] });
  // Teams the admin holds no role in, and one of the admin's own (to bind a single-team token to).
  team.bobs = await makeTeam(bob, "Bob's team");
  await addMember(bob, team.bobs, alice, "member");
  team.admins = await makeTeam(admin, "Admin's own");
});
afterAll(() => app.stop());

/**
 * The code flow through openid-client, `who` approving at consent with the site phrase (and a team
 * for single-team scopes): the token response.
 */
async function tokenFor(scope: string, who: SignedUp = adminMfa, consent: Record<string, string> = { confirmation: PHRASE }) {
  const { verifier, challenge } = await pkce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: REDIRECT, scope, code_challenge: challenge, code_challenge_method: "S256", state });
  const callback = await authorizeInBrowser(who, url, "approve", consent);
  return client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state });
}

/** A resource request through openid-client: status, body and the Bearer challenge. */
async function call(accessToken: string, method: string, path: string, body?: unknown) {
  const headers = new Headers(body === undefined ? {} : { "content-type": "application/json" });
  let res: Response;
  try {
    res = await client.fetchProtectedResource(
      rp.config,
      accessToken,
      new URL(path, app.url),
      method,
      body === undefined ? undefined : JSON.stringify(body),
      headers,
    );
  } catch (e) {
    if (!(e instanceof client.WWWAuthenticateChallengeError)) throw e;
    res = e.response as Response;
  }
  return { status: res.status, data: await res.json(), challenge: res.headers.get("www-authenticate") };
}

/** Every site endpoint, the scope it needs, and a request that would succeed with it. */
const endpoints = () => [
  { scope: "site:user:read", method: "GET", path: `${SITE}/users` },
  { scope: "site:team:read", method: "GET", path: `${SITE}/teams` },
  { scope: "site:team:read", method: "GET", path: `${SITE}/teams/${team.bobs}` },
  { scope: "site:team:write", method: "PATCH", path: `${SITE}/teams/${team.bobs}`, body: { name: "Taken over" } },
  { scope: "site:team:write", method: "POST", path: `${SITE}/teams/${team.bobs}/members`, body: { username: "carol", role: "owner" } },
  { scope: "site:team:write", method: "PATCH", path: `${SITE}/teams/${team.bobs}/members/${alice.user.id}`, body: { role: "owner" } },
  { scope: "site:team:write", method: "DELETE", path: `${SITE}/teams/${team.bobs}/members/${alice.user.id}` },
  { scope: "site:team:write", method: "POST", path: `${SITE}/teams/${team.bobs}/groups`, body: { slug: "x", name: "X" } },
  { scope: "site:team:delete", method: "DELETE", path: `${SITE}/teams/${team.bobs}` },
  { scope: "site:token:revoke", method: "POST", path: `${SITE}/users/${alice.user.id}/revoke-tokens` },
];

/** What a refused request must leave alone: the teams, the audit log and every grant. */
const snapshot = async () => ({ ...(await snapshotTeams(app)), grants: await app.ctx.db.all(sql`SELECT id, revoked_at FROM oauth_grants ORDER BY id`) });

describe("spec 1 section 2.3 rule 9: site scopes at consent", () => {
  it("an admin with a second factor grants every site scope with the phrase; openid-client gets a token holding them", async () => {
    const tokens = await tokenFor(`openid ${SITE_SCOPES.join(" ")}`);
    expect(tokens.scope?.split(" ").sort()).toEqual(["openid", ...SITE_SCOPES].sort());
    expect(tokens.claims()?.acr).toBe("mfa");
  });

  it("a user who is not an admin cannot get them: they fall out, and the token reaches no site endpoint", async () => {
    const tokens = await tokenFor("openid site:team:read site:user:read", alice);
    expect(tokens.scope).toBe("openid");
    for (const path of [`${SITE}/teams/${team.bobs}`, `${SITE}/users`]) expect((await call(tokens.access_token, "GET", path)).status).toBe(403);
  });
});

describe("site:team:read reaches every team; team and teams scopes do not", () => {
  it("reads a team its user is not in, in the shape of the team view, with the admin's own role null", async () => {
    const { access_token } = await tokenFor("openid site:team:read");
    const res = await call(access_token, "GET", `${SITE}/teams/${team.bobs}`);
    expect(res.status).toBe(200);
    expect(res.data.team).toEqual({ id: team.bobs as string, name: "Bob's team", parent_id: null, role: null });
    expect(res.data.members.map((m: { username: string; role: string }) => [m.username, m.role]).sort()).toEqual([
      ["alice", "member"],
      ["bob", "owner"],
    ]);
    expect(res.data.groups).toEqual([]);
    // The same shape as a member's own view, but for role.
    const own = await bob.bearer("GET", `${TEAMS}/${team.bobs}`);
    expect({ ...res.data, team: { ...res.data.team, role: "owner" } }).toEqual(own.data);
    expect((await call(access_token, "GET", `${SITE}/teams/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });

  it("lists every team on the instance, a page at a time, with the admin's own roles", async () => {
    const { access_token } = await tokenFor("openid site:team:read");
    const res = await call(access_token, "GET", `${SITE}/teams`);
    expect(res.status).toBe(200);
    expect(res.data.total).toBe(res.data.teams.length);
    expect(res.data.teams).toContainEqual({ id: team.bobs, name: "Bob's team", parent_id: null, role: null, direct_role: null });
    expect(res.data.teams).toContainEqual({ id: team.admins, name: "Admin's own", parent_id: null, role: "owner", direct_role: "owner" });
    const found = await call(access_token, "GET", `${SITE}/teams?q=bob&limit=1`);
    expect(found.data.teams.map((t: { id: string }) => t.id)).toEqual([team.bobs]);
    expect((await call(access_token, "GET", `${SITE}/teams?q=%25`)).data).toEqual({ teams: [], total: 0 });
    expect((await call(access_token, "GET", `${SITE}/teams?limit=0`)).status).toBe(400);
  });

  it("a teams:read token of the same admin cannot reach that team: 403 on the site API, 404 on their own", async () => {
    const { access_token } = await tokenFor("openid teams:read");
    const site = await call(access_token, "GET", `${SITE}/teams/${team.bobs}`);
    expect({ status: site.status, error: site.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
    expect(site.challenge).toContain('scope="site:team:read"');
    expect((await call(access_token, "GET", `${SITE}/teams`)).status).toBe(403);
    expect((await call(access_token, "GET", `${TEAMS}/${team.bobs}`)).status).toBe(404);
  });

  it("a token bound to the admin's own team (team:<id>:read) cannot reach it either", async () => {
    const tokens = await tokenFor("openid team:read", adminMfa, { team_id: team.admins as string });
    expect(tokens.scope).toBe(`openid team:${team.admins}:read`);
    const bound = await call(tokens.access_token, "GET", `/api/oauth/me/team/${team.admins}`);
    expect(bound.status).toBe(200);
    for (const path of [`/api/oauth/me/team/${team.bobs}`, `${SITE}/teams/${team.bobs}`]) {
      const res = await call(tokens.access_token, "GET", path);
      expect({ status: res.status, error: res.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
    }
  });

  it("RFC 9470: an admin token from a password sign-in gets 401 insufficient_user_authentication on the site API", async () => {
    const { access_token } = await tokenFor("openid teams:read", admin);
    const res = await call(access_token, "GET", `${SITE}/teams`);
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 401, error: "insufficient_user_authentication" });
    expect(res.challenge).toContain('acr_values="mfa"');
  });
});

describe("site:team:write and site:team:delete act on any team through the team rules", () => {
  it("renames, manages members and groups of a team the admin is not in; audited as the admin, via the site", async () => {
    const { access_token } = await tokenFor("openid site:team:write");
    const renamed = await call(access_token, "PATCH", `${SITE}/teams/${team.bobs}`, { name: "Bob's team (moderated)" });
    expect(renamed).toMatchObject({ status: 200, data: { team: { id: team.bobs, name: "Bob's team (moderated)", parent_id: null } } });
    // Above the grant cap of any member but an owner: a site administrator may hand out owner.
    const added = await call(access_token, "POST", `${SITE}/teams/${team.bobs}/members`, { username: "carol", role: "owner" });
    expect(added).toMatchObject({ status: 201, data: { member: { user_id: carol.user.id, username: "carol", role: "owner" } } });
    const changed = await call(access_token, "PATCH", `${SITE}/teams/${team.bobs}/members/${carol.user.id}`, { role: "member" });
    expect(changed).toMatchObject({ status: 200, data: { member: { role: "member" } } });
    // The team keeps its owner, whoever asks.
    const lastOwner = await call(access_token, "PATCH", `${SITE}/teams/${team.bobs}/members/${bob.user.id}`, { role: "member" });
    expect({ status: lastOwner.status, error: lastOwner.data.error }).toEqual({ status: 409, error: "conflict" });
    expect((await call(access_token, "POST", `${SITE}/teams/${team.bobs}/groups`, { slug: "mods", name: "Moderators" })).status).toBe(201);
    const filled = await call(access_token, "PUT", `${SITE}/teams/${team.bobs}/groups/mods/members`, { user_ids: [alice.user.id] });
    expect(filled.data.group).toEqual({ slug: "mods", name: "Moderators", members: [alice.user.id] });
    expect((await call(access_token, "PATCH", `${SITE}/teams/${team.bobs}/groups/mods`, { name: "Mods" })).status).toBe(200);
    expect((await call(access_token, "DELETE", `${SITE}/teams/${team.bobs}/groups/mods`)).data).toEqual({ ok: true });
    expect((await call(access_token, "DELETE", `${SITE}/teams/${team.bobs}/members/${carol.user.id}`)).data).toEqual({ ok: true });
    // Bad input and unknown targets get the team API's own answers.
    expect((await call(access_token, "PATCH", `${SITE}/teams/${team.bobs}`, { name: " " })).status).toBe(400);
    expect((await call(access_token, "POST", `${SITE}/teams/${team.bobs}/members`, { username: "nobody", role: "member" })).status).toBe(404);
    expect((await call(access_token, "PATCH", `${SITE}/teams/no-such-team`, { name: "x" })).status).toBe(404);

    const log = (await bob.bearer("GET", `${TEAMS}/${team.bobs}/audit`)).data.entries as {
      action: string;
      actor_user_id: string;
      details: Record<string, unknown>;
    }[];
    const bySite = log.filter((e) => e.details.via === "site");
    expect(bySite.map((e) => e.action).sort()).toEqual(
      ["team.renamed", "member.added", "member.role_changed", "group.created", "group.members_set", "group.renamed", "group.deleted", "member.removed"].sort(),
    );
    for (const entry of bySite) expect(entry.actor_user_id).toBe(admin.user.id);
    expect((await bob.bearer("GET", `${TEAMS}/${team.bobs}`)).data.team.name).toBe("Bob's team (moderated)");
  });

  it("deletes any team with site:team:delete; site:team:write alone cannot", async () => {
    const doomed = await makeTeam(bob, "Doomed");
    const writer = await tokenFor("openid site:team:write");
    const refused = await call(writer.access_token, "DELETE", `${SITE}/teams/${doomed}`);
    expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 403, error: "insufficient_scope" });
    const { access_token } = await tokenFor("openid site:team:delete");
    expect(await call(access_token, "DELETE", `${SITE}/teams/${doomed}`)).toMatchObject({ status: 200, data: { ok: true } });
    expect((await bob.bearer("GET", `${TEAMS}/${doomed}`)).status).toBe(404);
    const entry = (await app.ctx.db.select().from(auditLog).where(eq(auditLog.teamId, doomed)).all()).at(-1);
    expect(entry).toMatchObject({ action: "team.deleted", actorUserId: admin.user.id, details: { name: "Doomed", via: "site" } });
  });
});

describe("the site tier on the admin API", () => {
  it("GET /site/users answers the admin user list; site:user:read also opens GET /admin/users", async () => {
    const { access_token } = await tokenFor("openid site:user:read");
    const site = await call(access_token, "GET", `${SITE}/users?q=ali`);
    expect(site.status).toBe(200);
    expect(site.data).toEqual((await admin.browser.json("GET", "/api/oauth/admin/users?q=ali")).data);
    expect(site.data.users.map((u: { username: string }) => u.username)).toEqual(["alice"]);
    expect((await call(access_token, "GET", "/api/oauth/admin/users")).status).toBe(200);
    expect((await call(access_token, "GET", `${SITE}/users?limit=x`)).status).toBe(400);
  });

  it("site:user:write changes a user through PATCH /admin/users/:id", async () => {
    const { access_token } = await tokenFor("openid site:user:write");
    const promoted = await call(access_token, "PATCH", `/api/oauth/admin/users/${carol.user.id}`, { role: "admin" });
    expect(promoted).toMatchObject({ status: 200, data: { user: { id: carol.user.id, role: "admin" } } });
    expect((await call(access_token, "PATCH", `/api/oauth/admin/users/${carol.user.id}`, { role: "user" })).data.user.role).toBe("user");
    expect((await call(access_token, "GET", "/api/oauth/admin/users")).status).toBe(403);
  });

  it("site:config:read and site:config:write read and change the instance configuration", async () => {
    const reader = await tokenFor("openid site:config:read");
    const read = await call(reader.access_token, "GET", "/api/oauth/admin/config");
    expect(read.status).toBe(200);
    expect(read.data.config.admin_requires_mfa).toBe(true);
    expect((await call(reader.access_token, "GET", "/api/oauth/admin/audit")).status).toBe(200);
    expect((await call(reader.access_token, "PATCH", "/api/oauth/admin/config", { sudo_mode_ttl_minutes: 20 })).status).toBe(403);
    const writer = await tokenFor("openid site:config:write");
    const written = await call(writer.access_token, "PATCH", "/api/oauth/admin/config", { sudo_mode_ttl_minutes: 20 });
    expect(written).toMatchObject({ status: 200, data: { config: { sudo_mode_ttl_minutes: 20 } } });
    expect((await call(writer.access_token, "GET", "/api/oauth/admin/config")).status).toBe(403);
  });

  it("the site config tier opens every configuration endpoint: upstream providers, docs sources and settings, app verification", async () => {
    const reader = await tokenFor("openid site:config:read");
    for (const path of ["/api/oauth/admin/identity-providers", "/api/docs/sources", "/api/docs/settings"])
      expect({ path, status: (await call(reader.access_token, "GET", path)).status }).toEqual({ path, status: 200 });
    expect((await call(reader.access_token, "PATCH", `/api/oauth/admin/clients/${rp.client_id}`, { is_verified: true })).status).toBe(403);
    const writer = await tokenFor("openid site:config:write");
    const verified = await call(writer.access_token, "PATCH", `/api/oauth/admin/clients/${rp.client_id}`, { is_verified: true });
    expect(verified).toMatchObject({ status: 200, data: { client_id: rp.client_id, is_verified: true } });
  });
});

describe("site:token:revoke: POST /site/users/:id/revoke-tokens", () => {
  it("ends every OAuth token of the user in every app (and codes not yet redeemed), not their sessions or PATs", async () => {
    const dora = await signUp(app, "dora");
    const otherApp = await confidentialApp(app, admin, { scopes: ["openid", "offline_access"] });
    const first = await tokenFor("openid offline_access", dora);
    const started = await authorizeCode(dora, otherApp, "openid offline_access");
    const second = await client.authorizationCodeGrant(otherApp.config, started.callback, { pkceCodeVerifier: started.verifier, expectedState: started.state });
    const pending = await authorizeCode(dora, otherApp, "openid");
    const pat = await patClient(app, dora, ["teams:read"]);
    expect((await client.tokenIntrospection(rp.config, first.access_token)).active).toBe(true);

    const { access_token } = await tokenFor("openid site:token:revoke");
    const res = await call(access_token, "POST", `${SITE}/users/${dora.user.id}/revoke-tokens`);
    expect(res).toMatchObject({ status: 200, data: { revoked: 2 } });

    // RFC 7662: both apps' access and refresh tokens are inactive; the refresh grant fails.
    for (const [config, tokens] of [
      [rp.config, first],
      [otherApp.config, second],
    ] as const) {
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
      expect((await client.tokenIntrospection(config, tokens.refresh_token as string)).active).toBe(false);
      expect((await oauthErrorOf(client.refreshTokenGrant(config, tokens.refresh_token as string))).error).toBe("invalid_grant");
      expect((await call(tokens.access_token, "GET", "/api/oauth/userinfo")).status).toBe(401);
    }
    // The code issued before the revocation yields nothing.
    const redeemed = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code: pending.code, redirect_uri: REDIRECT, code_verifier: pending.verifier },
      { basic: [otherApp.client_id, otherApp.client_secret] },
    );
    expect({ status: redeemed.status, error: redeemed.data.error }).toEqual({ status: 400, error: "invalid_grant" });
    // Sessions and personal access tokens are another matter.
    expect((await dora.browser.json("GET", "/api/auth/session")).status).toBe(200);
    expect((await pat("GET", TEAMS)).status).toBe(200);
    // Nothing left: a second call ends none. Both were audited.
    expect((await call(access_token, "POST", `${SITE}/users/${dora.user.id}/revoke-tokens`)).data).toEqual({ revoked: 0 });
    const audited = await app.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, dora.user.id)).all();
    expect(audited.filter((e) => e.action === "site.tokens_revoked").map((e) => [e.actorUserId, e.details])).toEqual([
      [admin.user.id, { grants: 2 }],
      [admin.user.id, { grants: 0 }],
    ]);
    // New authorizations work again: the user's consent and session were left alone.
    expect((await tokenFor("openid", dora)).access_token).toBeString();
  });

  it("touches no other user's tokens, and an unknown user is 404", async () => {
    const bobs = await tokenFor("openid", bob);
    const eve = await signUp(app, "eve");
    await tokenFor("openid", eve);
    const { access_token } = await tokenFor("openid site:token:revoke");
    expect((await call(access_token, "POST", `${SITE}/users/${eve.user.id}/revoke-tokens`)).data).toEqual({ revoked: 1 });
    expect((await client.tokenIntrospection(rp.config, bobs.access_token)).active).toBe(true);
    const unknown = await call(access_token, "POST", `${SITE}/users/no-such-user/revoke-tokens`);
    expect({ status: unknown.status, error: unknown.data.error }).toEqual({ status: 404, error: "not_found" });
  });

  it("of 50 parallel revocations, the user's grants are counted once between them", async () => {
    const fay = await signUp(app, "fay");
    for (let i = 0; i < 3; i++) await tokenFor("openid offline_access", fay);
    const { access_token } = await tokenFor("openid site:token:revoke");
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(access_token, "POST", `${SITE}/users/${fay.user.id}/revoke-tokens`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.reduce((sum, a) => sum + a.data.revoked, 0)).toBe(3);
    expect(answers.filter((a) => a.data.revoked > 0)).toHaveLength(1);
  });
});

describe("every site endpoint refuses what lacks its scope or its admin", () => {
  it("a site token holding every other site scope gets 403 insufficient_scope, and nothing changes", async () => {
    const tokens = new Map<string, string>();
    for (const scope of new Set(endpoints().map((e) => e.scope))) {
      const others = SITE_SCOPES.filter((s) => s !== scope);
      tokens.set(scope, (await tokenFor(`openid ${others.join(" ")}`)).access_token);
    }
    const before = await snapshot();
    for (const { scope, method, path, body } of endpoints()) {
      const res = await call(tokens.get(scope) as string, method, path, body);
      expect({ path, method, status: res.status, error: res.data.error }).toEqual({ path, method, status: 403, error: "insufficient_scope" });
      expect(res.challenge).toContain(`scope="${scope}"`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("a non-admin's session gets 403, and nothing changes; an admin's session passes", async () => {
    const before = await snapshot();
    for (const { method, path, body } of endpoints()) {
      const res = await alice.browser.json(method, path, body);
      expect({ path, method, status: res.status, error: res.data.error }).toEqual({ path, method, status: 403, error: "forbidden" });
    }
    expect(await snapshot()).toEqual(before);
    expect((await admin.browser.json("GET", `${SITE}/teams/${team.bobs}`)).status).toBe(200);
    expect((await admin.browser.json("GET", `${SITE}/users`)).status).toBe(200);
  });

  it("a site token stops working once its user is no longer an admin (the role is checked on every call)", async () => {
    const dan = await signUp(app, "dan");
    await admin.browser.json("PATCH", `/api/oauth/admin/users/${dan.user.id}`, { role: "admin" });
    const danMfa = { ...dan, browser: (await signInWithTotp(app, dan, clock.now)).browser };
    const { access_token } = await tokenFor("openid site:team:read", danMfa);
    expect((await call(access_token, "GET", `${SITE}/teams/${team.bobs}`)).status).toBe(200);
    await admin.browser.json("PATCH", `/api/oauth/admin/users/${dan.user.id}`, { role: "user" });
    const res = await call(access_token, "GET", `${SITE}/teams/${team.bobs}`);
    expect({ status: res.status, error: res.data.error }).toEqual({ status: 403, error: "forbidden" });
  });
});
