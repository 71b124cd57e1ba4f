import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { MEMBERS_FRESH_MS } from "../../src/workspace/members/team-members.service.ts";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";

const clock = manualClock();
let app: TestApp;
let olive: SignedUp;
let teamId: string;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  olive = await signUp(app, "olive", { name: "Olive" });
  await olive.browser.json("PATCH", "/api/oauth/me", { picture: "https://img.example/olive.png" });
  teamId = (await olive.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team.id;
  await workspaceSignIn(app, olive);
});
afterAll(() => app.stop());

const api = (method: string, path: string, body?: unknown) => olive.browser.json(method, `/api/teams/${teamId}${path}`, body);
const members = async () =>
  (await api("GET", "/members")).data.members as { userId: string; name: string | null; username: string | null; avatarUrl: string | null }[];
const usernames = async () => (await members()).map((m) => m.username);
/** The owner adds a user to the team at the IdP (its teams API); they never use the workspace. */
const people: Record<string, SignedUp> = {};
const joinAtIdp = async (username: string) => {
  const user = (people[username] = await signUp(app, username, { name: username[0]?.toUpperCase() + username.slice(1) }));
  expect((await olive.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username, role: "member" })).status).toBe(201);
  return user;
};
const leaveAtIdp = async (userId: string) =>
  expect((await olive.browser.json("DELETE", `/api/oauth/me/teams/${teamId}/members/${userId}`)).data).toEqual({ ok: true });
const idOf = (username: string) => (people[username] as SignedUp).user.id;
const todo = async () => {
  const setId = crypto.randomUUID();
  await app.ctx.db
    .insert(todoSets)
    .values({ id: setId, teamId, userId: olive.user.id, name: `Set ${setId}`, sortOrder: 0, createdAt: clock.now(), permissions: null })
    .run();
  return (await api("POST", `/sets/${setId}/todos`, { title: "Fix the tap" })).data.todo.id as string;
};

describe("ARCHITECTURE section 4: member identities are resolved through the IdP's team API", () => {
  it("keeps the IdP's access token at sign-in, sealed at rest, with its expiry", async () => {
    const [row] = await app.ctx.db.all<Record<string, any>>(sql`SELECT * FROM ws_sessions WHERE user_id = ${olive.user.id}`);
    if (!row) throw new Error("no workspace session");
    expect(row.idp_access_token_sealed).toStartWith("v1.");
    // ARCHITECTURE section 4, "Lifetimes": one hour, on our clock.
    expect(row.idp_access_expires_at).toBe(clock.now() + 3600_000);
    const token = app.ctx.secrets.open(row.idp_access_token_sealed, `ws_idp_access_token:${row.id}`);
    expect(row.idp_access_token_sealed).not.toContain(token);
    // It is the IdP's real token, good for the team API.
    const teams = await app.client().json("GET", `/api/oauth/me/teams/${teamId}`, undefined, { authorization: `Bearer ${token}` });
    expect(teams.status).toBe(200);
    expect(teams.data.members.map((m: any) => m.username)).toEqual(["olive"]);
  });

  it("GET members lists a member who never used the workspace, with the IdP's names", async () => {
    const bob = await joinAtIdp("bob");
    const list = await members();
    expect(list.map((m) => m.username)).toEqual(["bob", "olive"]);
    expect(list.find((m) => m.username === "bob")).toEqual({ userId: bob.user.id, username: "bob", name: "Bob", avatarUrl: null });
    // The team API has no pictures: the avatar from the caller's own sign-in stays.
    expect(list.find((m) => m.username === "olive")).toEqual({
      userId: olive.user.id,
      username: "olive",
      name: "Olive",
      avatarUrl: "https://img.example/olive.png",
    });
  });

  it("PUT assignees assigns a member known only to the IdP, and still ignores strangers", async () => {
    const bob = idOf("bob");
    const id = await todo();
    const res = await api("PUT", `/todos/${id}/assignees`, { userIds: [bob, crypto.randomUUID()] });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true, assignees: [{ userId: bob, username: "bob", name: "Bob", avatarUrl: null }] });
  });

  it("answers from the cache within the freshness window, and follows the IdP after it", async () => {
    clock.advance(MEMBERS_FRESH_MS);
    expect(await usernames()).toEqual(["bob", "olive"]); // a fresh window starts
    const carol = await joinAtIdp("carol");
    const id = await todo();
    // Within the window the IdP is not asked: Carol is not known yet.
    clock.advance(MEMBERS_FRESH_MS - 1000);
    expect(await usernames()).toEqual(["bob", "olive"]);
    expect((await api("PUT", `/todos/${id}/assignees`, { userIds: [carol.user.id] })).data.assignees).toEqual([]);
    clock.advance(1000);
    expect(await usernames()).toEqual(["bob", "carol", "olive"]);
    expect((await api("PUT", `/todos/${id}/assignees`, { userIds: [carol.user.id] })).data.assignees.map((a: any) => a.username)).toEqual(["carol"]);
    expect(app.logs.filter((line) => String(line.msg).startsWith("workspace members:"))).toEqual([]);
  });

  it("removes a member removed at the IdP once the window has passed; they can no longer be assigned", async () => {
    const [bob, carol] = [idOf("bob"), idOf("carol")];
    await leaveAtIdp(bob);
    const id = await todo();
    expect(await usernames()).toEqual(["bob", "carol", "olive"]); // still cached
    clock.advance(MEMBERS_FRESH_MS);
    expect(await usernames()).toEqual(["carol", "olive"]);
    expect((await api("PUT", `/todos/${id}/assignees`, { userIds: [bob, carol] })).data.assignees.map((a: any) => a.username)).toEqual(["carol"]);
  });

  it("takes a renamed member's new name from the IdP, for the list and for assignees", async () => {
    const id = await todo();
    await api("PUT", `/todos/${id}/assignees`, { userIds: [idOf("carol")] });
    expect((await people.carol?.browser.json("PATCH", "/api/oauth/me", { name: "Caroline" }))?.status).toBe(200);
    clock.advance(MEMBERS_FRESH_MS);
    expect((await members()).find((m) => m.username === "carol")?.name).toBe("Caroline");
    const setId = (await app.ctx.db.all<{ set_id: string }>(sql`SELECT set_id FROM todos WHERE id = ${id}`))[0]?.set_id;
    const listed = (await api("GET", `/sets/${setId}/todos`)).data.todos[0];
    expect(listed.assignees).toEqual([{ userId: idOf("carol"), username: "carol", name: "Caroline", avatarUrl: null }]);
  });

  it("a member removed at the IdP loses the workspace once the list is refreshed; a changed role applies", async () => {
    const dave = await joinAtIdp("dave");
    await workspaceSignIn(app, dave);
    const frank = await joinAtIdp("frank");
    await workspaceSignIn(app, frank);
    expect((await dave.browser.json("GET", `/api/teams/${teamId}/sets`)).status).toBe(200);
    expect((await frank.browser.json("GET", `/api/teams/${teamId}/sets`)).data.role).toBe("member");
    await leaveAtIdp(dave.user.id);
    expect((await olive.browser.json("PATCH", `/api/oauth/me/teams/${teamId}/members/${frank.user.id}`, { role: "admin" })).status).toBe(200);
    // Any member's request after the window refreshes the list in the background.
    clock.advance(MEMBERS_FRESH_MS);
    await members();
    const gone = await dave.browser.json("GET", `/api/teams/${teamId}/sets`);
    expect(gone).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    expect((await frank.browser.json("GET", `/api/teams/${teamId}/sets`)).data.role).toBe("admin");
  });

  it("personal spaces still list only the caller", async () => {
    const res = await olive.browser.json("GET", `/api/teams/personal:${olive.user.id}/members`);
    expect(res.data.members.map((m: any) => m.userId)).toEqual([olive.user.id]);
  });

  it("forgets the IdP's tokens on logout", async () => {
    const erin = await signUp(app, "erin");
    await workspaceSignIn(app, erin);
    await erin.browser.json("POST", "/api/workspace/logout");
    const [row] = await app.ctx.db.all<Record<string, unknown>>(sql`SELECT * FROM ws_sessions WHERE user_id = ${erin.user.id}`);
    expect(row).toMatchObject({ idp_access_token_sealed: null, idp_refresh_token_sealed: null, idp_access_expires_at: null });
  });
});
