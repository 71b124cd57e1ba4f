import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { addMember, makeTeam, snapshotTeams, TEAMS } from "./teams.fixtures.ts";

let app: TestApp;
let owner: SignedUp, admin: SignedUp, member: SignedUp, outsider: SignedUp, elder: SignedUp;
let parent: string, team: string;
beforeAll(async () => {
  app = await startApp();
  [owner, admin, member, outsider, elder] = [
    await signUp(app, "owner"),
    await signUp(app, "admin"),
    await signUp(app, "member"),
    await signUp(app, "outsider"),
    await signUp(app, "elder"),
  ];
  parent = await makeTeam(owner, "Parent");
  team = await makeTeam(owner, "Grouped", parent);
  await addMember(owner, parent, elder, "member");
  await addMember(owner, team, admin, "admin");
  await addMember(owner, team, member, "member");
});
afterAll(() => app.stop());

const groupsOf = (teamId: string) => `${TEAMS}/${teamId}/groups`;

describe("groups", () => {
  it("creates a group for admin+ and shows it on the team", async () => {
    const res = await admin.bearer("POST", groupsOf(team), { slug: "on-call_1", name: " On call " });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ group: { slug: "on-call_1", name: "On call", members: [] } });
    expect((await member.bearer("GET", `${TEAMS}/${team}`)).data.groups).toEqual([{ slug: "on-call_1", name: "On call", members: [] }]);
  });

  it("refuses bad slugs and names with 400, a duplicate slug with 409, a member with 403; none change anything", async () => {
    await owner.bearer("POST", groupsOf(team), { slug: "dup", name: "Dup" });
    const before = await snapshotTeams(app);
    for (const slug of ["", "Ops", "-ops", "_ops", "has space", "é", "a".repeat(64)])
      expect((await owner.bearer("POST", groupsOf(team), { slug, name: "Fine" })).status).toBe(400);
    for (const body of [{ slug: "fine", name: "" }, { slug: "fine", name: "x".repeat(101) }, { slug: "fine" }])
      expect((await owner.bearer("POST", groupsOf(team), body)).status).toBe(400);
    expect((await owner.bearer("POST", groupsOf(team), { slug: "dup", name: "Again" })).status).toBe(409);
    expect((await member.bearer("POST", groupsOf(team), { slug: "mine", name: "Mine" })).status).toBe(403);
    expect((await outsider.bearer("POST", groupsOf(team), { slug: "mine", name: "Mine" })).status).toBe(404);
    expect(await snapshotTeams(app)).toEqual(before);
    expect((await owner.bearer("POST", groupsOf(team), { slug: "a".repeat(63), name: "Longest" })).status).toBe(201);
  });

  it("renames a group but never changes its slug", async () => {
    await owner.bearer("POST", groupsOf(team), { slug: "ops", name: "Ops" });
    const res = await admin.bearer("PATCH", `${groupsOf(team)}/ops`, { name: "Operations", slug: "new-slug" });
    expect(res.data).toEqual({ group: { slug: "ops", name: "Operations", members: [] } });
    expect((await admin.bearer("PATCH", `${groupsOf(team)}/nope`, { name: "X" })).status).toBe(404);
    expect((await member.bearer("PATCH", `${groupsOf(team)}/ops`, { name: "Mine" })).status).toBe(403);
    expect((await admin.bearer("PATCH", `${groupsOf(team)}/ops`, { name: "  " })).status).toBe(400);
  });

  it("replaces the member list with direct and inherited members only", async () => {
    await owner.bearer("POST", groupsOf(team), { slug: "devs", name: "Devs" });
    const path = `${groupsOf(team)}/devs/members`;
    const set = await admin.bearer("PUT", path, { user_ids: [member.user.id, elder.user.id, member.user.id] });
    expect(set.status).toBe(200);
    expect(set.data.group.members).toEqual([member.user.id, elder.user.id].sort());
    const before = await snapshotTeams(app);
    const refused = await admin.bearer("PUT", path, { user_ids: [admin.user.id, outsider.user.id] });
    expect(refused.status).toBe(400);
    expect(refused.data.error_description).toContain(outsider.user.id);
    for (const body of [{ user_ids: "x" }, {}, { user_ids: [1] }]) expect((await admin.bearer("PUT", path, body)).status).toBe(400);
    expect((await member.bearer("PUT", path, { user_ids: [] })).status).toBe(403);
    expect(await snapshotTeams(app)).toEqual(before);
    expect((await admin.bearer("PUT", path, { user_ids: [admin.user.id] })).data.group.members).toEqual([admin.user.id]);
  });

  it("takes a member out of the team's groups when they leave the team or an ancestor", async () => {
    await owner.bearer("POST", groupsOf(team), { slug: "leavers", name: "Leavers" });
    await owner.bearer("PUT", `${groupsOf(team)}/leavers/members`, { user_ids: [elder.user.id, member.user.id] });
    await elder.bearer("DELETE", `${TEAMS}/${parent}/members/${elder.user.id}`);
    await member.bearer("DELETE", `${TEAMS}/${team}/members/${member.user.id}`);
    const detail = await owner.bearer("GET", `${TEAMS}/${team}`);
    expect(detail.data.groups.find((g: { slug: string }) => g.slug === "leavers").members).toEqual([]);
  });

  it("takes inherited-only members out of the groups when the team moves away from their team", async () => {
    const moving = await makeTeam(owner, "Moving", parent);
    await owner.bearer("POST", groupsOf(moving), { slug: "crew", name: "Crew" });
    await addMember(owner, parent, outsider, "member");
    await owner.bearer("PUT", `${groupsOf(moving)}/crew/members`, { user_ids: [outsider.user.id, owner.user.id] });
    expect((await owner.bearer("PATCH", `${TEAMS}/${moving}`, { parent_id: null })).status).toBe(200);
    expect((await owner.bearer("GET", `${TEAMS}/${moving}`)).data.groups).toEqual([{ slug: "crew", name: "Crew", members: [owner.user.id] }]);
  });

  it("deletes a group for admin+", async () => {
    await owner.bearer("POST", groupsOf(team), { slug: "temp", name: "Temp" });
    expect((await admin.bearer("DELETE", `${groupsOf(team)}/temp`)).data).toEqual({ ok: true });
    expect((await admin.bearer("DELETE", `${groupsOf(team)}/temp`)).status).toBe(404);
    const slugs = (await owner.bearer("GET", `${TEAMS}/${team}`)).data.groups.map((g: { slug: string }) => g.slug);
    expect(slugs).not.toContain("temp");
  });
});
