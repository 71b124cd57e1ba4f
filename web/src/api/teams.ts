import { request } from "./http.ts";

export type TeamRole = "owner" | "co-owner" | "admin" | "member";
export const TEAM_ROLES: TeamRole[] = ["owner", "co-owner", "admin", "member"];

export type TeamSummary = { id: string; name: string; parent_id: string | null; role: TeamRole; direct_role: TeamRole | null };
export type Team = { id: string; name: string; parent_id: string | null; role: TeamRole };
export type TeamMember = { user_id: string; username: string; name: string; role: TeamRole; direct_role?: TeamRole | null; inherited_from: string | null };
export type TeamGroup = { slug: string; name: string; members: string[] };
export type TeamAuditEntry = {
  id: number;
  at: number;
  actor_user_id: string | null;
  action: string;
  team_id: string | null;
  target_user_id: string | null;
  details: unknown;
};
export type TeamDetail = { team: Team; members: TeamMember[]; groups: TeamGroup[] };

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
  list: async () => (await get<{ teams: TeamSummary[] }>("/api/oauth/me/teams")).teams,
  create: async (name: string, parentId: string | null) =>
    (await send<{ team: Team }>("POST", "/api/oauth/me/teams", parentId ? { name, parent_id: parentId } : { name })).team,
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

  audit: async (teamId: string) => (await get<{ entries: TeamAuditEntry[] }>(`${base(teamId)}/audit`)).entries,
};
