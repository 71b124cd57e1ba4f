import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { DEFAULT_PERMISSIONS } from "../../src/workspace/permissions/permissions.ts";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let teamId: string;
let otherTeamId: string;
let admin: SignedUp;
let member: SignedUp;
let stranger: SignedUp;
const SET_ID = "set-household-1";
const FOREIGN_SET_ID = "set-elsewhere-1";

async function addMember(username: string, role: string) {
  const user = await signUp(app, username);
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username, role })).status).toBeLessThan(300);
  await workspaceSignIn(app, user);
  return user;
}

// Sets are inserted directly: these tests are about the permission endpoints, not set creation.
async function insertSet(id: string, team: string, userId: string) {
  await app.ctx.db.insert(todoSets).values({ id, teamId: team, userId, name: id, sortOrder: 0, createdAt: 0 }).run();
}

beforeAll(async () => {
  app = await startApp();
  const owner = await teamOwner(app, "alice");
  alice = owner.user;
  teamId = owner.team.id;
  admin = await addMember("adam", "admin");
  member = await addMember("mia", "member");
  const other = await teamOwner(app, "sam", "Elsewhere");
  stranger = other.user;
  otherTeamId = other.team.id;
  await insertSet(SET_ID, teamId, alice.user.id);
  await insertSet(FOREIGN_SET_ID, otherTeamId, stranger.user.id);
});
afterAll(() => app.stop());

const teamUrl = () => `/api/teams/${teamId}/permissions`;
const setUrl = (setId = SET_ID) => `/api/teams/${teamId}/sets/${setId}/permissions`;

describe("ARCHITECTURE section 4 GET|PUT /api/teams/:teamId/permissions", () => {
  it("answers 401 Unauthorized without a workspace session", async () => {
    expect(await app.client().json("GET", teamUrl())).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
    const put = await app.client().json("PUT", teamUrl(), {}, { origin: app.url });
    expect(put).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
  });

  it("answers 403 Forbidden to a non-member", async () => {
    expect(await stranger.browser.json("GET", teamUrl())).toMatchObject({ status: 403, data: { error: "Forbidden" } });
  });

  it("gives every member the full matrix, filled with the role defaults", async () => {
    const res = await member.browser.json("GET", teamUrl());
    expect(res).toEqual({ status: 200, headers: res.headers, data: { permissions: DEFAULT_PERMISSIONS } });
  });

  it("answers 403 Forbidden to a PUT from a member or an admin (no manage_settings by default)", async () => {
    for (const user of [member, admin, stranger]) {
      const res = await user.browser.json("PUT", teamUrl(), { member: { manage_sets: true } });
      expect(res).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    }
    expect((await alice.browser.json("GET", teamUrl())).data.permissions).toEqual(DEFAULT_PERMISSIONS);
  });

  it("replaces the matrix on PUT and answers it filled", async () => {
    const res = await alice.browser.json("PUT", teamUrl(), { member: { manage_sets: true, comment: false } });
    expect(res.status).toBe(200);
    expect(res.data.permissions).toEqual({
      ...DEFAULT_PERMISSIONS,
      member: { ...DEFAULT_PERMISSIONS.member, manage_sets: true, comment: false },
    });
    expect((await member.browser.json("GET", teamUrl())).data).toEqual(res.data);
    const replaced = await alice.browser.json("PUT", teamUrl(), { admin: { manage_settings: true } });
    expect(replaced.data.permissions.member).toEqual(DEFAULT_PERMISSIONS.member);
    expect(replaced.data.permissions.admin.manage_settings).toBe(true);
  });

  it("lets a holder of manage_settings granted by the matrix edit it", async () => {
    const res = await admin.browser.json("PUT", teamUrl(), {});
    expect(res).toMatchObject({ status: 200, data: { permissions: DEFAULT_PERMISSIONS } });
    expect((await admin.browser.json("PUT", teamUrl(), {})).status).toBe(403);
  });

  it.each([
    ["an unknown role", { guest: { view_todos: true } }],
    ["an unknown key", { member: { fly: true } }],
    ["a non-boolean value", { member: { comment: "yes" } }],
    ["a role that is not an object", { member: true }],
    ["an array", [{ member: {} }]],
  ])("answers 400 Invalid request for %s, changing nothing", async (_name, body) => {
    const res = await alice.browser.json("PUT", teamUrl(), body);
    expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    expect((await alice.browser.json("GET", teamUrl())).data.permissions).toEqual(DEFAULT_PERMISSIONS);
  });

  it("answers 400 Invalid request for malformed JSON", async () => {
    expect(await alice.browser.json("PUT", teamUrl(), "{oops")).toMatchObject({ status: 400, data: { error: "Invalid request" } });
  });

  it("works in a personal space", async () => {
    const url = `/api/teams/personal:${member.user.id}/permissions`;
    expect((await member.browser.json("GET", url)).data.permissions).toEqual(DEFAULT_PERMISSIONS);
    const res = await member.browser.json("PUT", url, { member: { view_todos: false } });
    expect(res.status).toBe(200);
    expect(res.data.permissions.member.view_todos).toBe(false);
    expect((await alice.browser.json("GET", url)).status).toBe(403);
  });
});

describe("ARCHITECTURE section 4 GET|PUT /api/teams/:teamId/sets/:setId/permissions", () => {
  it("answers 401 Unauthorized without a workspace session, and 403 Forbidden to a non-member", async () => {
    expect(await app.client().json("GET", setUrl())).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
    expect(await stranger.browser.json("GET", setUrl())).toMatchObject({ status: 403, data: { error: "Forbidden" } });
  });

  it("gives a set without overrides an empty object", async () => {
    expect(await member.browser.json("GET", setUrl())).toMatchObject({ status: 200, data: { permissions: {} } });
  });

  it("answers 404 Set not found for a missing set or one of another team", async () => {
    for (const id of ["no-such-set", FOREIGN_SET_ID]) {
      expect(await alice.browser.json("GET", setUrl(id))).toMatchObject({ status: 404, data: { error: "Set not found" } });
      expect(await alice.browser.json("PUT", setUrl(id), {})).toMatchObject({ status: 404, data: { error: "Set not found" } });
    }
  });

  it("answers 403 Forbidden to a PUT without manage_settings", async () => {
    for (const user of [member, admin]) {
      expect(await user.browser.json("PUT", setUrl(), { member: { delete_any_todo: true } })).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    }
  });

  it("stores the overrides on PUT, which then apply in that set only", async () => {
    const res = await alice.browser.json("PUT", setUrl(), { member: { delete_any_todo: true } });
    expect(res).toMatchObject({ status: 200, data: { permissions: { member: { delete_any_todo: true } } } });
    expect((await member.browser.json("GET", setUrl())).data).toEqual({ permissions: { member: { delete_any_todo: true } } });
    const row = (await app.ctx.db.select().from(todoSets).all()).find((s) => s.id === SET_ID);
    expect(row?.permissions).toEqual({ member: { delete_any_todo: true } });
    expect((await member.browser.json("GET", teamUrl())).data.permissions.member.delete_any_todo).toBe(false);
  });

  it("answers 400 Invalid request for a bad matrix, changing nothing", async () => {
    const res = await alice.browser.json("PUT", setUrl(), { member: { delete_any_todo: 1 } });
    expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    expect((await alice.browser.json("GET", setUrl())).data).toEqual({ permissions: { member: { delete_any_todo: true } } });
  });

  it("clears the overrides with an empty object", async () => {
    expect((await alice.browser.json("PUT", setUrl(), {})).data).toEqual({ permissions: {} });
    expect((await member.browser.json("GET", setUrl())).data).toEqual({ permissions: {} });
  });
});
