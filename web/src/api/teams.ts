import type { AuditEntries } from "../../../src/contract/api/admin.ts";
import type { TeamAnswer, TeamDetail, TeamList, TeamRole, TeamSummary } from "../../../src/contract/api/teams.ts";
import { request } from "./http.ts";

export type { AuditEntry as TeamAuditEntry } from "../../../src/contract/api/admin.ts";
export type { TeamDetail, TeamGroup, TeamMember, TeamRole, TeamSummary } from "../../../src/contract/api/teams.ts";
/** A team as its page shows it: with the caller's role. */
export type { TeamWithRole as Team } from "../../../src/contract/api/teams.ts";
// The contract's list, highest first.
export { TEAM_ROLES } from "../../../src/contract/team-roles.ts";

const RANK: Record<TeamRole, number> = { owner: 4, "co-owner": 3, admin: 2, member: 1 };

/** Mirrors the server's teams.policy: `role` is `min` or ranks above it. Only for showing controls; the server decides. */
export function atLeast(role: TeamRole | null | undefined, min: TeamRole): boolean {
  return role ? RANK[role] >= RANK[min] : false;
}

const base = (teamId: string) => `/api/oauth/me/teams/${encodeURIComponent(teamId)}`;
const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the teams API, `/api/oauth/me/teams` (ARCHITECTURE section 4). */
export const teamsApi = {
  list: async () => (await get<TeamList>("/api/oauth/me/teams")).teams,
  create: async (name: string, parentId: string | null) =>
    (await send<TeamAnswer>("POST", "/api/oauth/me/teams", parentId ? { name, parent_id: parentId } : { name })).team,
  /** A new top-level team; its creator is its owner. */
  createOwned: async (name: string): Promise<TeamSummary> => ({ ...(await teamsApi.create(name, null)), role: "owner", direct_role: "owner" }),
  get: (teamId: string) => get<TeamDetail>(base(teamId)),
  update: (teamId: string, patch: { name?: string; parent_id?: string | null }) => send("PATCH", base(teamId), patch),
  remove: (teamId: string) => send("DELETE", base(teamId)),

  addMember: (teamId: string, username: string, role: TeamRole) => send("POST", `${base(teamId)}/members`, { username, role }),
  setMemberRole: (teamId: string, userId: string, role: TeamRole) => send("PATCH", `${base(teamId)}/members/${encodeURIComponent(userId)}`, { role }),
  removeMember: (teamId: string, userId: string) => send("DELETE", `${base(teamId)}/members/${encodeURIComponent(userId)}`),

  createGroup: (teamId: string, slug: string, name: string) => send("POST", `${base(teamId)}/groups`, { slug, name }),
  renameGroup: (teamId: string, slug: string, name: string) => send("PATCH", `${base(teamId)}/groups/${encodeURIComponent(slug)}`, { name }),
  setGroupMembers: (teamId: string, slug: string, userIds: string[]) =>
    send("PUT", `${base(teamId)}/groups/${encodeURIComponent(slug)}/members`, { user_ids: userIds }),
  deleteGroup: (teamId: string, slug: string) => send("DELETE", `${base(teamId)}/groups/${encodeURIComponent(slug)}`),

  audit: async (teamId: string) => (await get<AuditEntries>(`${base(teamId)}/audit`)).entries,
};
