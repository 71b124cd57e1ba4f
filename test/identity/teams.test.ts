import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { teamMembers, teams } from "../../src/identity/teams/teams.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { addMember, makeTeam, snapshotTeams, TEAMS } from "./teams.fixtures.ts";

let app: TestApp;
let alice: SignedUp, bob: SignedUp, carol: SignedUp, dave: SignedUp;
beforeAll(async () => {
  app = await startApp();
  [alice, bob, carol, dave] = [await signUp(app, "alice"), await signUp(app, "bob"), await signUp(app, "carol"), await signUp(app, "dave")];
});
afterAll(() => app.stop());

describe("creating teams", () => {
  it("creates a team with a trimmed name and makes the creator its owner", async () => {
    const res = await bob.browser.json("POST", TEAMS, { name: "  Platform  " });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ team: { id: expect.any(String), name: "Platform", parent_id: null } });
    const list = await bob.bearer("GET", TEAMS);
    expect(list.data.teams).toContainEqual({ id: res.data.team.id, name: "Platform", parent_id: null, role: "owner", direct_role: "owner" });
  });

  it("refuses a bad name with a 400 that changes nothing", async () => {
    const before = await snapshotTeams(app);
    for (const body of [{ name: "" }, { name: "   " }, { name: "x".repeat(101) }, {}, { name: 42 }, [], "not json"]) {
      const res = await bob.bearer("POST", TEAMS, body);
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("invalid_request");
    }
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("creates a sub-team only with admin+ on the parent", async () => {
    const root = await makeTeam(bob, "Root");
    await addMember(bob, root, carol, "admin");
    await addMember(bob, root, dave, "member");
    const before = await snapshotTeams(app);
    const asMember = await dave.bearer("POST", TEAMS, { name: "Sub", parent_id: root });
    expect(asMember.status).toBe(403);
    expect(asMember.data.error).toBe("forbidden");
    expect((await alice.bearer("POST", TEAMS, { name: "Sub", parent_id: root })).status).toBe(404);
    expect((await bob.bearer("POST", TEAMS, { name: "Sub", parent_id: "no-such-team" })).status).toBe(404);
    expect(await snapshotTeams(app)).toEqual(before);
    const sub = await carol.bearer("POST", TEAMS, { name: "Sub", parent_id: root });
    expect(sub.status).toBe(201);
    expect(sub.data.team.parent_id).toBe(root);
  });
});

describe("listing and reading teams", () => {
  it("lists teams reached through an ancestor with the inherited role and no direct role", async () => {
    const top = await makeTeam(carol, "Top");
    const mid = await makeTeam(carol, "Mid", top);
    const leaf = await makeTeam(carol, "Leaf", mid);
    await addMember(carol, top, dave, "admin");
    await addMember(carol, leaf, dave, "member");
    const mine = (await dave.bearer("GET", TEAMS)).data.teams;
    expect(mine).toContainEqual({ id: top, name: "Top", parent_id: null, role: "admin", direct_role: "admin" });
    expect(mine).toContainEqual({ id: mid, name: "Mid", parent_id: top, role: "admin", direct_role: null });
    expect(mine).toContainEqual({ id: leaf, name: "Leaf", parent_id: mid, role: "admin", direct_role: "member" });
    expect((await alice.bearer("GET", TEAMS)).data.teams.map((t: { id: string }) => t.id)).not.toContain(leaf);
  });

  it("shows members with the team each inherited role comes from, and the groups", async () => {
    const top = await makeTeam(carol, "Org");
    const leaf = await makeTeam(carol, "Org leaf", await makeTeam(carol, "Org mid", top));
    await addMember(carol, top, dave, "admin");
    await addMember(carol, leaf, bob, "member");
    const res = await dave.bearer("GET", `${TEAMS}/${leaf}`);
    expect(res.status).toBe(200);
    expect(res.data.team).toEqual({ id: leaf, name: "Org leaf", parent_id: expect.any(String), role: "admin" });
    const byName = Object.fromEntries(res.data.members.map((m: { username: string }) => [m.username, m]));
    expect(byName.dave).toEqual({ user_id: dave.user.id, username: "dave", name: "dave", role: "admin", direct_role: null, inherited_from: top });
    expect(byName.bob).toMatchObject({ role: "member", direct_role: "member", inherited_from: null });
    // Carol created all three: she is a direct owner here too, so nothing is inherited.
    expect(byName.carol).toMatchObject({ role: "owner", direct_role: "owner", inherited_from: null });
    expect(res.data.groups).toEqual([]);
  });

  it("answers 404 to a non-member, the same as for a missing team", async () => {
    const team = await makeTeam(carol, "Private");
    const hidden = await alice.bearer("GET", `${TEAMS}/${team}`);
    const absent = await alice.bearer("GET", `${TEAMS}/00000000-0000-0000-0000-000000000000`);
    expect(hidden.status).toBe(404);
    expect(hidden.data).toEqual(absent.data);
  });

  it("asks for a sign-in without credentials", async () => {
    expect((await app.client().json("GET", TEAMS)).status).toBe(401);
  });
});

describe("renaming, moving and deleting teams", () => {
  it("lets an owner or co-owner rename, not an admin", async () => {
    const team = await makeTeam(bob, "Old name");
    await addMember(bob, team, carol, "co-owner");
    await addMember(bob, team, dave, "admin");
    const refused = await dave.bearer("PATCH", `${TEAMS}/${team}`, { name: "Nope" });
    expect(refused.status).toBe(403);
    const res = await carol.bearer("PATCH", `${TEAMS}/${team}`, { name: " New name " });
    expect(res.status).toBe(200);
    expect(res.data.team).toEqual({ id: team, name: "New name", parent_id: null });
    const before = await snapshotTeams(app);
    expect((await carol.bearer("PATCH", `${TEAMS}/${team}`, { name: " " })).status).toBe(400);
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("moves a team under a parent where the caller is admin+, and back to the root with null", async () => {
    const a = await makeTeam(bob, "A");
    const b = await makeTeam(carol, "B");
    await addMember(carol, b, bob, "member");
    expect((await bob.bearer("PATCH", `${TEAMS}/${a}`, { parent_id: b })).status).toBe(403);
    await carol.bearer("PATCH", `${TEAMS}/${b}/members/${bob.user.id}`, { role: "admin" });
    const moved = await bob.bearer("PATCH", `${TEAMS}/${a}`, { parent_id: b });
    expect(moved.data.team).toEqual({ id: a, name: "A", parent_id: b });
    const root = await bob.bearer("PATCH", `${TEAMS}/${a}`, { parent_id: null });
    expect(root.data.team.parent_id).toBeNull();
  });

  it("refuses to move a team under itself or one of its descendants", async () => {
    const top = await makeTeam(bob, "Cycle top");
    const mid = await makeTeam(bob, "Cycle mid", top);
    const leaf = await makeTeam(bob, "Cycle leaf", mid);
    const before = await snapshotTeams(app);
    for (const parent of [top, mid, leaf]) {
      const res = await bob.bearer("PATCH", `${TEAMS}/${top}`, { name: "Renamed too", parent_id: parent });
      expect(res.status).toBe(400);
      expect(res.data.error_description).toContain("under itself");
    }
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("deletes a team and its sub-teams for an owner or co-owner only", async () => {
    const top = await makeTeam(bob, "Doomed");
    const sub = await makeTeam(bob, "Doomed sub", top);
    await makeTeam(bob, "Doomed leaf", sub);
    await addMember(bob, top, dave, "admin");
    await addMember(bob, top, carol, "co-owner");
    expect((await dave.bearer("DELETE", `${TEAMS}/${top}`)).status).toBe(403);
    expect((await alice.bearer("DELETE", `${TEAMS}/${top}`)).status).toBe(404);
    const res = await carol.bearer("DELETE", `${TEAMS}/${top}`);
    expect(res.data).toEqual({ ok: true });
    expect(await app.ctx.db.select().from(teams).where(eq(teams.name, "Doomed leaf")).all()).toEqual([]);
    expect(await app.ctx.db.select().from(teamMembers).where(eq(teamMembers.teamId, top)).all()).toEqual([]);
    expect((await bob.bearer("GET", `${TEAMS}/${sub}`)).status).toBe(404);
  });
});
