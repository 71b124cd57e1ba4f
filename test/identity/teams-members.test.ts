import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { effectiveTeamRole, ownsAnyTeam } from "../../src/identity/teams/roles.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { addMember, makeTeam, snapshotTeams, TEAMS } from "./teams.fixtures.ts";

let app: TestApp;
let olga: SignedUp, cora: SignedUp, adam: SignedUp, mia: SignedUp, nina: SignedUp;
beforeAll(async () => {
  app = await startApp();
  await signUp(app, "siteadmin"); // the first account is the site admin; team rights must not depend on it
  [olga, cora, adam, mia, nina] = [
    await signUp(app, "olga"),
    await signUp(app, "cora"),
    await signUp(app, "adam"),
    await signUp(app, "mia"),
    await signUp(app, "nina"),
  ];
});
afterAll(() => app.stop());

const members = (teamId: string) => `${TEAMS}/${teamId}/members`;
const roleIn = async (teamId: string, who: SignedUp) =>
  (await olga.bearer("GET", `${TEAMS}/${teamId}`)).data.members.find((m: { user_id: string }) => m.user_id === who.user.id)?.role ?? null;

/** A team with one member of each role: olga owner, cora co-owner, adam admin, mia member. */
async function staffedTeam(name: string) {
  const team = await makeTeam(olga, name);
  await addMember(olga, team, cora, "co-owner");
  await addMember(olga, team, adam, "admin");
  await addMember(olga, team, mia, "member");
  return team;
}

describe("adding members", () => {
  it("adds a user by username and answers the member", async () => {
    const team = await makeTeam(olga, "Adding");
    const res = await olga.bearer("POST", members(team), { username: " NINA ", role: "admin" });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ member: { user_id: nina.user.id, username: "nina", role: "admin" } });
  });

  it("answers 404 for an unknown username, 409 for a direct member, 400 for a bad role; none change anything", async () => {
    const team = await staffedTeam("Bad adds");
    const before = await snapshotTeams(app);
    expect((await olga.bearer("POST", members(team), { username: "nobody", role: "member" })).status).toBe(404);
    const again = await olga.bearer("POST", members(team), { username: "mia", role: "admin" });
    expect(again.status).toBe(409);
    expect(again.data.error).toBe("conflict");
    for (const body of [{ username: "nina", role: "superuser" }, { username: "nina" }, { role: "member" }]) {
      expect((await olga.bearer("POST", members(team), body)).status).toBe(400);
    }
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("caps grants at the granter's own role", async () => {
    const team = await staffedTeam("Grant cap");
    const before = await snapshotTeams(app);
    expect((await mia.bearer("POST", members(team), { username: "nina", role: "member" })).status).toBe(403);
    expect((await adam.bearer("POST", members(team), { username: "nina", role: "co-owner" })).status).toBe(403);
    expect((await cora.bearer("POST", members(team), { username: "nina", role: "owner" })).status).toBe(403);
    expect(await snapshotTeams(app)).toEqual(before);
    expect((await adam.bearer("POST", members(team), { username: "nina", role: "admin" })).status).toBe(201);
  });
});

describe("changing roles and removing members", () => {
  it("lets an admin change a member or an equal, never someone above, nor raise anyone above itself", async () => {
    const team = await staffedTeam("Changes");
    const before = await snapshotTeams(app);
    expect((await adam.bearer("PATCH", `${members(team)}/${cora.user.id}`, { role: "member" })).status).toBe(403);
    expect((await adam.bearer("PATCH", `${members(team)}/${mia.user.id}`, { role: "co-owner" })).status).toBe(403);
    expect((await mia.bearer("PATCH", `${members(team)}/${mia.user.id}`, { role: "admin" })).status).toBe(403);
    expect((await adam.bearer("PATCH", `${members(team)}/${mia.user.id}`, { role: "boss" })).status).toBe(400);
    expect((await adam.bearer("PATCH", `${members(team)}/${nina.user.id}`, { role: "member" })).status).toBe(404);
    expect(await snapshotTeams(app)).toEqual(before);
    const res = await adam.bearer("PATCH", `${members(team)}/${mia.user.id}`, { role: "admin" });
    expect(res.data).toEqual({ member: { user_id: mia.user.id, username: "mia", role: "admin" } });
    expect(await roleIn(team, mia)).toBe("admin");
  });

  it("lets an admin remove a member but not a co-owner; a plain member removes nobody else", async () => {
    const team = await staffedTeam("Removals");
    expect((await mia.bearer("DELETE", `${members(team)}/${adam.user.id}`)).status).toBe(403);
    expect((await adam.bearer("DELETE", `${members(team)}/${cora.user.id}`)).status).toBe(403);
    expect((await adam.bearer("DELETE", `${members(team)}/${mia.user.id}`)).data).toEqual({ ok: true });
    expect(await roleIn(team, mia)).toBeNull();
  });

  it("lets anyone leave", async () => {
    const team = await staffedTeam("Leaving");
    expect((await mia.bearer("DELETE", `${members(team)}/${mia.user.id}`)).data).toEqual({ ok: true });
    expect((await mia.bearer("GET", `${TEAMS}/${team}`)).status).toBe(404);
  });

  it("keeps the last owner: they can neither leave nor be demoted until another owner exists", async () => {
    const team = await staffedTeam("Last owner");
    const before = await snapshotTeams(app);
    const leave = await olga.bearer("DELETE", `${members(team)}/${olga.user.id}`);
    expect(leave.status).toBe(409);
    expect(leave.data.error_description).toContain("at least one owner");
    expect((await olga.bearer("PATCH", `${members(team)}/${olga.user.id}`, { role: "co-owner" })).status).toBe(409);
    expect(await snapshotTeams(app)).toEqual(before);
    await olga.bearer("PATCH", `${members(team)}/${cora.user.id}`, { role: "owner" });
    expect((await olga.bearer("PATCH", `${members(team)}/${olga.user.id}`, { role: "co-owner" })).status).toBe(200);
    expect((await olga.bearer("DELETE", `${members(team)}/${olga.user.id}`)).status).toBe(200);
    expect((await cora.bearer("DELETE", `${members(team)}/${cora.user.id}`)).status).toBe(409);
  });
});

describe("roles inherited from a grandparent team", () => {
  it("gives a grandparent admin admin rights on the grandchild, capped at admin", async () => {
    const top = await makeTeam(olga, "Grandparent");
    const leaf = await makeTeam(olga, "Grandchild", await makeTeam(olga, "Parent", top));
    await addMember(olga, top, adam, "admin");
    await addMember(olga, leaf, mia, "member");
    expect(await effectiveTeamRole(app.ctx, adam.user.id, leaf)).toBe("admin");
    expect((await adam.bearer("POST", members(leaf), { username: "nina", role: "owner" })).status).toBe(403);
    expect((await adam.bearer("POST", members(leaf), { username: "nina", role: "admin" })).status).toBe(201);
    expect((await adam.bearer("PATCH", `${members(leaf)}/${mia.user.id}`, { role: "admin" })).status).toBe(200);
    // Olga is a direct owner of the grandchild too, and above adam: out of his reach.
    expect((await adam.bearer("DELETE", `${members(leaf)}/${olga.user.id}`)).status).toBe(403);
  });

  it("protects a grandparent owner holding a lower direct role from being changed by an admin", async () => {
    const top = await makeTeam(olga, "Org root");
    const leaf = await makeTeam(olga, "Org leaf", await makeTeam(olga, "Org mid", top));
    await addMember(olga, leaf, nina, "owner");
    await addMember(olga, leaf, adam, "admin");
    expect((await olga.bearer("PATCH", `${members(leaf)}/${olga.user.id}`, { role: "member" })).status).toBe(200);
    expect(await effectiveTeamRole(app.ctx, olga.user.id, leaf)).toBe("owner");
    const before = await snapshotTeams(app);
    expect((await adam.bearer("PATCH", `${members(leaf)}/${olga.user.id}`, { role: "admin" })).status).toBe(403);
    expect((await adam.bearer("DELETE", `${members(leaf)}/${olga.user.id}`)).status).toBe(403);
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("ownsAnyTeam and effectiveTeamRole follow the tree", async () => {
    const top = await makeTeam(olga, "Owned root");
    const leaf = await makeTeam(olga, "Owned leaf", await makeTeam(olga, "Owned mid", top));
    await addMember(olga, top, nina, "co-owner");
    expect(await effectiveTeamRole(app.ctx, nina.user.id, leaf)).toBe("co-owner");
    expect(await effectiveTeamRole(app.ctx, mia.user.id, leaf)).toBeNull();
    expect(await ownsAnyTeam(app.ctx, olga.user.id, ["missing", leaf])).toBe(true);
    expect(await ownsAnyTeam(app.ctx, nina.user.id, [top, leaf])).toBe(false);
    expect(await ownsAnyTeam(app.ctx, olga.user.id, [])).toBe(false);
  });
});
