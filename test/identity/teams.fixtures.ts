import { eq } from "drizzle-orm";
import { auditLog } from "../../src/identity/audit/audit.table.ts";
import { createPat } from "../../src/identity/pats/pats.service.ts";
import { teamGroupMembers, teamGroups, teamMembers, teams } from "../../src/identity/teams/teams.table.ts";
import { users } from "../../src/identity/users/users.table.ts";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";

export const TEAMS = "/api/oauth/me/teams";

/** Creates a team (as a bearer API client) and answers its id. */
export async function makeTeam(owner: SignedUp, name: string, parentId?: string): Promise<string> {
  const res = await owner.bearer("POST", TEAMS, parentId === undefined ? { name } : { name, parent_id: parentId });
  if (res.status !== 201) throw new Error(`team ${name}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data.team.id;
}

export async function addMember(actor: SignedUp, teamId: string, who: SignedUp, role: string) {
  const res = await actor.bearer("POST", `${TEAMS}/${teamId}/members`, { username: who.user.username, role });
  if (res.status !== 201) throw new Error(`add ${who.user.username}: ${res.status} ${JSON.stringify(res.data)}`);
}

/** An API client holding a personal access token of `who` with only `scopes`. */
export async function patClient(app: TestApp, who: SignedUp, scopes: string[]) {
  const user = await app.ctx.db.select().from(users).where(eq(users.id, who.user.id)).get();
  if (!user) throw new Error("no such user");
  const { secret } = await createPat(app.ctx, user, { name: `test ${scopes.join(" ")}`, scopes });
  return (method: string, path: string, body?: unknown) => app.json(method, path, body, { authorization: `Bearer ${secret}` });
}

/** Every row the teams API writes, to prove a refused request changed nothing. */
export async function snapshotTeams(app: TestApp) {
  const { db } = app.ctx;
  return {
    teams: await db.select().from(teams).all(),
    members: await db.select().from(teamMembers).all(),
    groups: await db.select().from(teamGroups).all(),
    groupMembers: await db.select().from(teamGroupMembers).all(),
    audit: (await db.select().from(auditLog).all()).length,
  };
}
