import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import * as client from "openid-client";
import * as openpgp from "openpgp";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, signInWithTotp, signUp, type SignedUp, totpCode } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";
import { confidentialApp, obtainTokens, oauthErrorOf, type RegisteredApp } from "../oauth/oauth.fixtures.ts";

// Issue 40 item 2 (spec 1 section 2.3 `admin:users:delete`, `site:user:delete`; ARCHITECTURE
// section 4b): deleting an account, by an administrator or by its holder.
let app: TestApp;
let admin: SignedUp;
let rp: RegisteredApp;
let staff: { id: string; name: string };

beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin");
  rp = await confidentialApp(app, admin, { backchannel_logout_uri: "https://rp.example.com/backchannel" });
  staff = (await admin.browser.json("POST", "/api/oauth/me/teams", { name: "Staff" })).data.team;
  await workspaceSignIn(app, admin);
});
afterAll(() => app.stop());

const deleteAsAdmin = (id: string, as: SignedUp = admin) => as.browser.json("DELETE", `/api/oauth/admin/users/${id}`);
const listed = async (username: string) =>
  ((await admin.browser.json("GET", `/api/oauth/admin/users?q=${username}`)).data.users as { username: string }[]).some((u) => u.username === username);
const teamApi = (user: SignedUp, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${staff.id}${path}`, body);

/** Every table and its columns, bytea ones marked: from the catalog of the store under test. */
function catalog() {
  const db = app.ctx.db;
  return db.all<{ table: string; column: string; binary: number }>(
    db.$dialect === "postgres"
      ? sql`SELECT c.table_name AS "table", c.column_name AS "column", CASE WHEN c.data_type = 'bytea' THEN 1 ELSE 0 END AS "binary"
          FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> '__cairn_migrations'`
      : sql`SELECT m.name AS "table", c.name AS "column", 0 AS "binary" FROM sqlite_master m JOIN pragma_table_info(m.name) c
          WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '%drizzle%'`,
  );
}

/** Every `table.column` of the database in which `needle` occurs (case-insensitive), so nothing is missed. */
async function columnsHolding(needle: string): Promise<string[]> {
  const db = app.ctx.db;
  const position = sql.raw(db.$dialect === "postgres" ? "strpos" : "instr");
  const byTable = Map.groupBy(await catalog(), (c) => c.table);
  const found: string[] = [];
  for (const [table, columns] of byTable) {
    // A column as text: PostgreSQL's bytea as its escaped bytes (ASCII as it is), as SQLite casts a blob.
    const asText = (c: { column: string; binary: number }) =>
      c.binary ? sql`encode(${sql.identifier(c.column)}, 'escape')` : sql`CAST(${sql.identifier(c.column)} AS TEXT)`;
    const holds = columns.map((c) => sql`max(CASE WHEN ${position}(lower(${asText(c)}), lower(CAST(${needle} AS TEXT))) > 0 THEN 1 ELSE 0 END)`);
    const [row] = await db.values<(number | null)[]>(sql`SELECT ${sql.join(holds, sql`, `)} FROM ${sql.identifier(table)}`);
    for (const [i, c] of columns.entries()) if (row?.[i] === 1) found.push(`${table}.${c.column}`);
  }
  return found.sort();
}

/** A member of Staff holding one of every credential, and a way to try each of them. */
async function personWithEverything(username: string, extra: { email?: string; name?: string } = {}) {
  const user = await signUp(app, username, extra);
  expect((await admin.browser.json("POST", `/api/oauth/me/teams/${staff.id}/members`, { username, role: "member" })).status).toBe(201);
  await workspaceSignIn(app, user);
  const pat = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret as string;
  const tokens = await obtainTokens(user, rp, "openid profile email offline_access");
  const sid = (await user.browser.json("GET", "/api/auth/session")).data.session.sid as string;
  const works = {
    session: async () => (await user.bearer("GET", "/api/auth/session")).status === 200,
    cookie: async () => (await user.browser.json("GET", "/api/auth/session")).status === 200,
    workspace: async () => (await teamApi(user, "GET", "/sets")).status === 200,
    workspaceMe: async () => (await user.browser.json("GET", "/api/workspace/me")).status === 200,
    pat: async () => (await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${pat}` })).status === 200,
    userinfo: async () => {
      try {
        return (await client.fetchUserInfo(rp.config, tokens.access_token, user.user.id)).sub === user.user.id;
      } catch (e) {
        expect(e).toBeInstanceOf(client.WWWAuthenticateChallengeError);
        return false;
      }
    },
    introspection: async () => (await client.tokenIntrospection(rp.config, tokens.access_token)).active,
    refreshIntrospection: async () => (await client.tokenIntrospection(rp.config, tokens.refresh_token as string)).active,
  };
  /** Which credentials work now. */
  const check = async () => {
    const result: Record<string, boolean> = {};
    for (const [name, works_] of Object.entries(works)) result[name] = await works_();
    return result;
  };
  return { user, sid, tokens, check };
}

const all = (value: boolean) => ({
  session: value,
  cookie: value,
  workspace: value,
  workspaceMe: value,
  pat: value,
  userinfo: value,
  introspection: value,
  refreshIntrospection: value,
});

describe("DELETE /api/oauth/admin/users/:id", () => {
  it("ends every credential of the person everywhere: IdP session (cookie and bearer), workspace session, PAT, access and refresh tokens", async () => {
    const bob = await personWithEverything("bob");
    expect(await bob.check()).toEqual(all(true));
    expect(await deleteAsAdmin(bob.user.user.id)).toMatchObject({ status: 200, data: { ok: true } });
    expect(await bob.check()).toEqual(all(false));
    // The refresh token is refused at the token endpoint (RFC 6749 section 5.2).
    expect(await oauthErrorOf(client.refreshTokenGrant(rp.config, bob.tokens.refresh_token as string))).toMatchObject({ error: "invalid_grant" });
    // OIDC Back-Channel Logout: the app that got tokens in the person's session is owed a logout token for it.
    const deliveries = (await admin.browser.json("GET", `/api/oauth/me/clients/${rp.client_id}/backchannel-deliveries`)).data.deliveries as { sid: string }[];
    expect(deliveries.map((d) => d.sid)).toContain(bob.sid);
    // Signing in again is impossible: the account is gone.
    expect((await jarFetch(app.url).json("POST", "/api/auth/login", { login: "bob", password: PASSWORD })).status).toBe(401);
    expect(await listed("bob")).toBe(false);
  });

  it("removes the person's data and memberships from every table; team work stays, by id, with no name", async () => {
    const zeb = await personWithEverything("zebulon-two", { email: "zeb2@example.org", name: "Zeb Two" }); // a bystander, kept
    const person = await personWithEverything("zebulon-x", { email: "zebx@example.org", name: "Zebulon Quist" });
    const { user } = person;
    const id = user.user.id;
    // A second factor, a domain, a GPG key, an app of their own, a group in Staff.
    const secret = (await user.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    expect((await user.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, Date.now()) })).status).toBe(200);
    expect((await user.browser.json("POST", "/api/oauth/me/domains", { domain: "zebulon.example" })).status).toBe(201);
    const { publicKey } = (await openpgp.generateKey({
      type: "ecc",
      curve: "curve25519Legacy",
      userIDs: [{ name: "Zebulon Quist", email: "zebx@example.org" }],
      format: "armored",
    } as never)) as unknown as { publicKey: string };
    expect((await user.browser.json("POST", "/api/oauth/me/gpg-keys", { armored: publicKey })).status).toBe(201);
    const own = await registerApp(user, { name: "Zebulon's tool" });
    expect((await admin.browser.json("POST", `/api/oauth/me/teams/${staff.id}/groups`, { slug: "ops", name: "Ops" })).status).toBe(201);
    expect((await admin.browser.json("PUT", `/api/oauth/me/teams/${staff.id}/groups/ops/members`, { user_ids: [id] })).status).toBe(200);
    // Workspace: a personal set with a share link, preferences, and work in the team (a todo, a comment, an assignment).
    const personal = `/api/teams/${encodeURIComponent(`personal:${id}`)}`;
    const mySet = (await user.browser.json("POST", `${personal}/sets`, { name: "Diary" })).data.set.id as string;
    expect((await user.browser.json("POST", `${personal}/sets/${mySet}/todos`, { title: "private thought" })).status).toBe(201);
    const link = await user.browser.json("POST", `${personal}/sets/${mySet}/share-links`, { name: "mine" });
    expect(link.status).toBe(201);
    expect((await user.browser.json("PUT", "/api/user/settings", { detailed_status: true })).status).toBe(200);
    const teamSet = (await teamApi(admin, "POST", "/sets", { name: "Chores" })).data.set.id as string;
    const todo = (await teamApi(user, "POST", `/sets/${teamSet}/todos`, { title: "Fix the sink" })).data.todo.id as string;
    expect((await teamApi(user, "POST", `/todos/${todo}/comments`, { body: "On it" })).status).toBe(201);
    expect((await teamApi(admin, "PUT", `/todos/${todo}/assignees`, { userIds: [id] })).status).toBe(200);
    // The scan finds the person before (so it would find leftovers after).
    expect(await columnsHolding("zebx@example.org")).toEqual(expect.arrayContaining(["users.email", "ws_sessions.email", "gpg_keys.user_ids"]));
    expect(await columnsHolding("Zebulon Quist")).toEqual(expect.arrayContaining(["users.name", "workspace_member_cache.name"]));

    expect(await deleteAsAdmin(id)).toMatchObject({ status: 200, data: { ok: true } });

    for (const personalData of ["zebulon-x", "zebx@example.org", "Zebulon Quist", "zebulon.example"]) expect(await columnsHolding(personalData)).toEqual([]);
    // Their app is gone; the audit log still says it was made (by the account's id).
    expect(await columnsHolding(own.client_id)).toEqual(["audit_log.details"]);
    // The id stays only where it keeps the team's work and the audit trail readable (and in the
    // owed logout token and the sign-in counters, which expire; on PostgreSQL, in the realtime
    // event counter of the personal space, which SQLite keeps in memory).
    const allowed = [
      "audit_log.actor_user_id",
      "audit_log.details",
      "audit_log.target_user_id",
      "backchannel_deliveries.sub",
      "rate_limit_hits.bucket",
      "realtime_channels.team_id",
      "todo_assignees.user_id",
      "todo_comments.user_id",
      "todos.user_id",
    ];
    for (const column of await columnsHolding(id)) expect(allowed).toContain(column);
    // The share link of the personal space stopped working.
    expect((await app.client().json("GET", `/api/shared/${link.data.link.token}`)).status).toBe(404);
    // The team keeps the work, shown without a name.
    const todos = (await teamApi(zeb.user, "GET", `/sets/${teamSet}/todos`)).data.todos as any[];
    expect(todos.find((t) => t.id === todo)).toMatchObject({ userId: id, assignees: [{ userId: id, name: null, username: null, avatarUrl: null }] });
    const comments = (await teamApi(zeb.user, "GET", `/todos/${todo}/comments`)).data.comments as any[];
    expect(comments[0]).toMatchObject({ body: "On it", author: { userId: id, name: null, username: null, avatarUrl: null } });
    const members = (await teamApi(zeb.user, "GET", "/members")).data.members as { userId: string }[];
    expect(members.map((m) => m.userId)).not.toContain(id);
    // The bystander is untouched.
    expect(await zeb.check()).toEqual(all(true));
  });

  it("keeps the audit trail listed, by id, without the person's username or email", async () => {
    const email = "yolanda.home@example.org";
    const invite = (await admin.browser.json("POST", "/api/oauth/admin/invites", { email })).data.code as string;
    const res = await jarFetch(app.url).json("POST", "/api/auth/register", { username: "yolanda", email, password: PASSWORD, invite });
    expect(res.status).toBe(201);
    const id = res.data.user.id as string;
    expect((await admin.browser.json("POST", `/api/oauth/me/teams/${staff.id}/members`, { username: "yolanda", role: "member" })).status).toBe(201);
    const entries = async () => (await admin.browser.json("GET", "/api/oauth/admin/audit?limit=200")).data.entries as any[];
    expect(JSON.stringify(await entries())).toContain(email);

    expect(await deleteAsAdmin(id)).toMatchObject({ status: 200, data: { ok: true } });
    const after = await entries();
    const about = after.filter((e) => e.target_user_id === id).map((e) => e.action);
    expect(about).toEqual(["user.deleted", "member.added", "user.registered"]);
    expect(after[0]).toMatchObject({ action: "user.deleted", actor_user_id: admin.user.id, target_user_id: id, details: { by: "admin" } });
    const text = JSON.stringify(after).toLowerCase();
    expect(text).not.toContain("yolanda");
    // The invitation's entry still says one was made, for a deleted person.
    expect(after.find((e) => e.action === "invite.created" && e.details.email === "(deleted user)")).toBeDefined();
  });

  it("refuses to delete the last active administrator (409) and changes nothing", async () => {
    const res = await deleteAsAdmin(admin.user.id);
    expect(res).toMatchObject({ status: 409, data: { error: "conflict" } });
    expect(res.data.error_description).toContain("last active administrator");
    expect((await admin.browser.json("GET", "/api/auth/session")).status).toBe(200);
    // With a second administrator, an administrator may go.
    const other = await signUp(app, "second-admin");
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${other.user.id}`, { role: "admin" })).status).toBe(200);
    expect(await deleteAsAdmin(other.user.id)).toMatchObject({ status: 200, data: { ok: true } });
    expect(await deleteAsAdmin(admin.user.id)).toMatchObject({ status: 409 });
  });

  it("names the teams the person alone owns (409) and deletes once someone else owns them", async () => {
    const olga = await signUp(app, "olga");
    const patio = (await olga.browser.json("POST", "/api/oauth/me/teams", { name: "Patio" })).data.team;
    expect((await olga.browser.json("POST", `/api/oauth/me/teams/${patio.id}/members`, { username: "admin", role: "member" })).status).toBe(201);
    const refused = await deleteAsAdmin(olga.user.id);
    expect(refused).toMatchObject({ status: 409, data: { error: "conflict", teams: [{ id: patio.id, name: "Patio" }] } });
    expect(refused.data.error_description).toContain("“Patio”");
    expect((await olga.browser.json("GET", "/api/auth/session")).status).toBe(200);
    expect((await olga.browser.json("PATCH", `/api/oauth/me/teams/${patio.id}/members/${admin.user.id}`, { role: "owner" })).status).toBe(200);
    expect(await deleteAsAdmin(olga.user.id)).toMatchObject({ status: 200, data: { ok: true } });
    const detail = (await admin.browser.json("GET", `/api/oauth/me/teams/${patio.id}`)).data;
    expect(detail.members.map((m: { username: string }) => m.username)).toEqual(["admin"]);
  });

  it("is refused to a non-admin session, to a token without the scope, and to unknown users; a token with admin:users:delete may", async () => {
    const victim = await signUp(app, "victim");
    const mallory = await signUp(app, "mallory");
    expect(await deleteAsAdmin(victim.user.id, mallory)).toMatchObject({ status: 403 });
    // Admin scopes on a token need a sign-in with a second factor (admin_requires_mfa).
    const { browser: mfa } = await signInWithTotp(app, admin, Date.now);
    const pat = async (scopes: string[]) => (await mfa.json("POST", "/api/oauth/me/tokens", { name: scopes.join(" "), scopes })).data.secret as string;
    const withPat = async (token: string) =>
      app.client().json("DELETE", `/api/oauth/admin/users/${victim.user.id}`, undefined, { authorization: `Bearer ${token}` });
    const readOnly = await withPat(await pat(["admin:users:read", "admin:users:write"]));
    expect(readOnly).toMatchObject({ status: 403, data: { error: "insufficient_scope" } });
    expect(readOnly.headers.get("www-authenticate")).toContain('scope="admin:users:delete"');
    expect(await listed("victim")).toBe(true);
    expect((await victim.browser.json("GET", "/api/auth/session")).status).toBe(200);
    expect(await deleteAsAdmin("no-such-user")).toMatchObject({ status: 404, data: { error: "not_found" } });
    expect(await withPat(await pat(["admin:users:delete"]))).toMatchObject({ status: 200, data: { ok: true } });
    expect(await listed("victim")).toBe(false);
  });

  it("50 simultaneous deletions of one user: exactly one succeeds, the others answer 404", async () => {
    const target = await signUp(app, "many-deaths");
    const answers = await Promise.all(Array.from({ length: 50 }, () => deleteAsAdmin(target.user.id)));
    expect(answers.filter((a) => a.status === 200 && a.data.ok === true)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(49);
    expect(await app.ctx.db.all(sql`SELECT count(*) AS n FROM audit_log WHERE action = 'user.deleted' AND target_user_id = ${target.user.id}`)).toEqual([
      { n: 1 },
    ]);
  });
});

describe("DELETE /api/oauth/me", () => {
  it("refuses a wrong password and changes nothing; the right one deletes the account and clears both cookies", async () => {
    const pia = await personWithEverything("pia");
    expect(pia.user.browser.cookies.has("cairn_ws")).toBe(true);
    const wrong = await pia.user.browser.json("DELETE", "/api/oauth/me", { password: "not my password" });
    expect(wrong).toMatchObject({ status: 400, data: { error: "invalid_request", error_description: "The password is not right." } });
    expect(await pia.check()).toEqual(all(true));
    expect((await pia.user.browser.json("DELETE", "/api/oauth/me", {})).status).toBe(400);
    expect((await pia.user.browser.json("DELETE", "/api/oauth/me", { password: 12 })).status).toBe(400);
    expect(await listed("pia")).toBe(true);

    const done = await pia.user.browser.json("DELETE", "/api/oauth/me", { password: PASSWORD });
    expect(done).toMatchObject({ status: 200, data: { ok: true } });
    const cleared = done.headers.getSetCookie();
    expect(cleared.some((c) => c.startsWith("cairn_session=;") && c.includes("Max-Age=0"))).toBe(true);
    expect(cleared.some((c) => c.startsWith("cairn_ws=;") && c.includes("Max-Age=0"))).toBe(true);
    // The browser's device mark stays: it belongs to the browser, not to the account (issue 44).
    expect([...pia.user.browser.cookies.keys()]).toEqual(["cairn_device"]);
    expect(await pia.check()).toEqual(all(false));
    expect(await listed("pia")).toBe(false);
    const audit = (await admin.browser.json("GET", "/api/oauth/admin/audit")).data.entries as any[];
    expect(audit[0]).toMatchObject({ action: "user.deleted", actor_user_id: pia.user.user.id, target_user_id: pia.user.user.id, details: { by: "self" } });
  });

  it("is for a signed-in session only: a token is refused", async () => {
    const quinn = await signUp(app, "quinn");
    const pat = (await quinn.browser.json("POST", "/api/oauth/me/tokens", { name: "p", scopes: ["profile", "profile:write"] })).data.secret;
    const res = await app.client().json("DELETE", "/api/oauth/me", { password: PASSWORD }, { authorization: `Bearer ${pat}` });
    expect(res.status).toBe(403);
    expect(await listed("quinn")).toBe(true);
    expect((await app.client().json("DELETE", "/api/oauth/me", { password: PASSWORD })).status).toBe(401);
  });

  it("refuses the last administrator and a sole team owner, before spending anything", async () => {
    const refused = await admin.browser.json("DELETE", "/api/oauth/me", { password: PASSWORD });
    expect(refused).toMatchObject({ status: 409, data: { error: "conflict" } });
    const rita = await signUp(app, "rita");
    const team = (await rita.browser.json("POST", "/api/oauth/me/teams", { name: "Rita's band" })).data.team;
    const blocked = await rita.browser.json("DELETE", "/api/oauth/me", { password: "wrong, but not even checked" });
    expect(blocked).toMatchObject({ status: 409, data: { teams: [{ id: team.id, name: "Rita's band" }] } });
    // Deleting the team first is the way out.
    expect((await rita.browser.json("DELETE", `/api/oauth/me/teams/${team.id}`)).status).toBe(200);
    expect(await rita.browser.json("DELETE", "/api/oauth/me", { password: PASSWORD })).toMatchObject({ status: 200, data: { ok: true } });
  });
});

describe("DELETE /api/oauth/me with a second factor, or a fresh sign-in", () => {
  const clock = manualClock();
  let own: TestApp;
  beforeAll(async () => {
    own = await startApp({ overrides: { clock } });
    await signUp(own, "first-admin");
  });
  afterAll(() => own.stop());

  it("accepts a TOTP code (used once) and a backup code, and refuses a wrong code", async () => {
    const sam = await signUp(own, "sam");
    const secret = (await sam.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    expect((await sam.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, clock.now()) })).status).toBe(200);
    expect(await sam.browser.json("DELETE", "/api/oauth/me", { code: "000000" })).toMatchObject({
      status: 400,
      data: { error_description: "That code is not right." },
    });
    // The code the enrolment used is spent: a replay does not pass.
    expect((await sam.browser.json("DELETE", "/api/oauth/me", { code: await totpCode(secret, clock.now()) })).status).toBe(400);
    expect((await sam.browser.json("DELETE", "/api/oauth/me", { code: "aaaaa-bbbbb" })).status).toBe(400);
    expect((await sam.browser.json("GET", "/api/auth/session")).status).toBe(200);
    clock.advance(30_000);
    expect(await sam.browser.json("DELETE", "/api/oauth/me", { code: await totpCode(secret, clock.now()) })).toMatchObject({ status: 200, data: { ok: true } });

    const tess = await signUp(own, "tess");
    const tessSecret = (await tess.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    const codes = (await tess.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(tessSecret, clock.now()) })).data
      .backup_codes as string[];
    expect(codes).toHaveLength(10);
    expect(await tess.browser.json("DELETE", "/api/oauth/me", { code: codes[0] })).toMatchObject({ status: 200, data: { ok: true } });
  });

  it("an account without a password or authenticator confirms with a sign-in from the last 10 minutes", async () => {
    // Accounts made through a linked provider (or using passkeys only) have no password.
    const noPassword = async (username: string) => {
      const user = await signUp(own, username);
      await own.ctx.db.run(sql`UPDATE users SET password_hash = '' WHERE id = ${user.user.id}`);
      return user;
    };
    const fresh = await noPassword("uli");
    expect(await fresh.browser.json("DELETE", "/api/oauth/me", {})).toMatchObject({ status: 200, data: { ok: true } });
    const stale = await noPassword("vera");
    clock.advance(11 * 60_000);
    const refused = await stale.browser.json("DELETE", "/api/oauth/me", { password: "" });
    expect(refused).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    expect(refused.data.error_description).toContain("fresh sign-in");
    expect((await stale.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });

  it("50 simultaneous self-deletions: exactly one succeeds, none fails with a server error", async () => {
    const wes = await signUp(own, "wes");
    const answers = await Promise.all(Array.from({ length: 50 }, () => wes.browser.json("DELETE", "/api/oauth/me", { password: PASSWORD })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // The rest: the account is gone (404), the session is (401), or password checks are paused (429).
    for (const a of answers.filter((a) => a.status !== 200)) expect([401, 404, 429]).toContain(a.status);
  });
});
