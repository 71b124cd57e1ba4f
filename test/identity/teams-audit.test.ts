import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { describeTeamAuditEntry } from "../../web/src/pages/teams/team-audit.tsx";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { authorizeInBrowser, discover, REDIRECT, registerApp } from "../helpers/oauth.ts";
import { addMember, makeTeam, patClient, TEAMS } from "./teams.fixtures.ts";

let app: TestApp;
let owner: SignedUp, admin: SignedUp, member: SignedUp;
let team: string;
beforeAll(async () => {
  app = await startApp();
  [owner, admin, member] = [await signUp(app, "owner"), await signUp(app, "admin"), await signUp(app, "member")];
  team = await makeTeam(owner, "Audited");
  await addMember(owner, team, admin, "admin");
  await addMember(owner, team, member, "member");
  await owner.bearer("PATCH", `${TEAMS}/${team}/members/${member.user.id}`, { role: "admin" });
  await owner.bearer("PATCH", `${TEAMS}/${team}/members/${member.user.id}`, { role: "member" });
  await admin.bearer("POST", `${TEAMS}/${team}/groups`, { slug: "ops", name: "Ops" });
  await admin.bearer("PATCH", `${TEAMS}/${team}/groups/ops`, { name: "Operations" });
  await admin.bearer("PUT", `${TEAMS}/${team}/groups/ops/members`, { user_ids: [member.user.id] });
  await admin.bearer("DELETE", `${TEAMS}/${team}/groups/ops`);
  await member.bearer("DELETE", `${TEAMS}/${team}/members/${member.user.id}`);
});
afterAll(() => app.stop());

const auditOf = (query = "") => `${TEAMS}/${team}/audit${query}`;

describe("team audit log", () => {
  it("records membership, role and group changes, newest first, with who did them", async () => {
    const res = await admin.bearer("GET", auditOf());
    expect(res.status).toBe(200);
    const entries = res.data.entries.map((e: { action: string; actor_user_id: string; target_user_id: string | null; details: unknown }) => [
      e.action,
      e.actor_user_id,
      e.target_user_id,
      e.details,
    ]);
    expect(entries).toEqual([
      ["member.left", member.user.id, member.user.id, { role: "member" }],
      ["group.deleted", admin.user.id, null, { slug: "ops", name: "Operations", members: [member.user.id] }],
      ["group.members_set", admin.user.id, null, { slug: "ops", added: [member.user.id], removed: [] }],
      ["group.renamed", admin.user.id, null, { slug: "ops", from: "Ops", to: "Operations" }],
      ["group.created", admin.user.id, null, { slug: "ops", name: "Ops" }],
      ["member.role_changed", owner.user.id, member.user.id, { from: "admin", to: "member" }],
      ["member.role_changed", owner.user.id, member.user.id, { from: "member", to: "admin" }],
      ["member.added", owner.user.id, member.user.id, { role: "member" }],
      ["member.added", owner.user.id, admin.user.id, { role: "admin" }],
      ["team.created", owner.user.id, owner.user.id, { name: "Audited", parent_id: null }],
    ]);
    expect(res.data.entries.every((e: { team_id: string; at: number }) => e.team_id === team && typeof e.at === "number")).toBe(true);
  });

  it("pages back with before and limit", async () => {
    const all = (await owner.bearer("GET", auditOf())).data.entries;
    const page = await owner.bearer("GET", auditOf(`?limit=2&before=${all[2].id}`));
    expect(page.data.entries.map((e: { id: number }) => e.id)).toEqual([all[3].id, all[4].id]);
    for (const q of ["?limit=0", "?limit=201", "?limit=abc", "?before=-1"]) expect((await owner.bearer("GET", auditOf(q))).status).toBe(400);
  });

  it("is for admins and above: a member is refused, an outsider gets 404", async () => {
    const plain = await signUp(app, "plain");
    await addMember(owner, team, plain, "member");
    const refused = await plain.bearer("GET", auditOf());
    expect(refused.status).toBe(403);
    expect(refused.data.error).toBe("forbidden");
    expect((await member.bearer("GET", auditOf())).status).toBe(404);
  });

  it("is readable with a teams:read token", async () => {
    expect((await (await patClient(app, admin, ["teams:read"]))("GET", auditOf("?limit=1"))).data.entries).toHaveLength(1);
    expect((await (await patClient(app, admin, ["profile"]))("GET", auditOf())).data.error).toBe("insufficient_scope");
  });
});

describe("spec 1 section 2.3 rule 6: a single-team grant on the team's log", () => {
  it("names the app, the granting admin and the permissions, and the team page says it in words", async () => {
    const granted = await makeTeam(owner, "Granted");
    await addMember(owner, granted, admin, "admin");
    const registered = await registerApp(owner, { name: "Grafana", scopes: ["openid", "team:read", "team:member:read", "team:member:profile:read"] });
    const config = await discover(app, registered.client_id, registered.client_secret);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid team:read team:member:read", state: "s" });
    await client.authorizationCodeGrant(config, await authorizeInBrowser(admin, url, "approve", { team_id: granted }), { expectedState: "s" });

    const [entry] = (await owner.bearer("GET", `${TEAMS}/${granted}/audit?limit=1`)).data.entries;
    expect(entry).toMatchObject({
      action: "team.access_granted",
      actor_user_id: admin.user.id,
      team_id: granted,
      details: { client_id: registered.client_id, client_name: "Grafana", permissions: ["read", "member:read"] },
    });
    const members = (await owner.bearer("GET", `${TEAMS}/${granted}`)).data.members as { user_id: string; username: string }[];
    const who = (id: string | null) => members.find((m) => m.user_id === id)?.username ?? "someone";
    expect(`${who(entry.actor_user_id)} ${describeTeamAuditEntry(entry, who)}`).toBe("admin let “Grafana” see this team and see who is in it");
    const three = { ...entry, details: { ...entry.details, permissions: ["read", "member:read", "member:profile:read"] } };
    expect(describeTeamAuditEntry(three, who)).toBe("let “Grafana” see this team, see who is in it and see its members' profiles");
  });
});
