import { ACTION_KEYS, type ActionKey, PERMISSION_KEYS, type PermissionKey, WORKSPACE_ROLES, type WorkspaceRole } from "../../../src/contract/workspace.ts";
import type { Comment, Member, SetCounts, SetFields, SortItem, Todo } from "../../../src/contract/workspace-records.ts";
import { query, request } from "./http.ts";

// The contract's lists and records (spec 2 sections 2 and 2.3, spec 3 section 2.4), as the SPA shows them.
export { ACTION_KEYS, PERMISSION_KEYS, WORKSPACE_ROLES };
export type { ActionKey, Comment, Member, PermissionKey, SetFields, SortItem, Todo, WorkspaceRole };

/** Spec 2 sections 4.1 to 4.2, spec 3 sections 2.3 and 2.4: the workspace's other shapes. */
type WorkspaceTeam = { id: string; name: string; role: string; groups: string[] };
export type WorkspaceMe = { user: { id: string; username: string; name: string; email: string; picture: string }; teams: WorkspaceTeam[] };

/** A set as the list endpoint answers it: with its counts. */
export type TodoSet = SetFields & SetCounts;
export type SetPatch = Partial<Pick<TodoSet, "name" | "autoRenew" | "renewTime" | "timezone" | "splitCompleted">>;

export type Permissions = Record<PermissionKey, boolean>;
export type PermissionMatrix = Record<WorkspaceRole, Permissions>;
/** Per-set overrides: only the keys that differ from the team matrix. */
export type SetOverrides = Partial<Record<WorkspaceRole, Partial<Permissions>>>;

export type TodoList = { todos: Todo[]; role: WorkspaceRole; permissions: Permissions };
type AssignedTodo = Pick<Todo, "id" | "parentId" | "title" | "completed" | "createdAt" | "updatedAt"> & { setId: string };
export type AssignedGroup = { setId: string; setName: string; todos: AssignedTodo[] };

export type ExportFormat = "md" | "json" | "yaml";
export type ImportOptions = { format: ExportFormat; content: string; includeComments?: boolean };

export type TeamSettings = {
  site_name: string;
  site_logo_url: string;
  accent_color: string;
  default_set_name: string;
  allow_member_create_sets: boolean;
  default_timezone: string;
};

/** A user who never saved preferences has `{}`; the client applies the defaults below. */
export type UserSettings = Partial<{
  action_bar: ActionKey[] | null;
  realtime_transport: "ws" | "sse" | "auto";
  workspace_favicon: boolean;
  detailed_status: boolean;
  personal_avatar_icon: boolean;
  complete_sound_enabled: boolean;
  complete_sound_url: string;
}>;
export const DEFAULT_ACTION_BAR: ActionKey[] = ["add_after", "add_subtodo", "edit", "complete", "assign", "comment", "move", "delete"];

const team = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;
const id = encodeURIComponent;
const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the workspace API (spec 2 section 4, spec 3 sections 4.2 and 4.3, ARCHITECTURE section 4). */
export const workspaceApi = {
  me: () => get<WorkspaceMe>("/api/workspace/me"),
  logout: () => send<{ ok: true }>("POST", "/api/workspace/logout"),

  sets: (teamId: string) => get<{ sets: TodoSet[]; role: WorkspaceRole }>(`${team(teamId)}/sets`),
  createSet: async (teamId: string, name: string) => (await send<{ set: SetFields }>("POST", `${team(teamId)}/sets`, { name })).set,
  patchSet: (teamId: string, setId: string, patch: SetPatch) => send<{ ok: true }>("PATCH", `${team(teamId)}/sets/${id(setId)}`, patch),
  deleteSet: (teamId: string, setId: string) => send<{ ok: true }>("DELETE", `${team(teamId)}/sets/${id(setId)}`),
  reorderSets: (teamId: string, items: SortItem[]) => send<{ ok: true }>("POST", `${team(teamId)}/sets/reorder`, { items }),
  exportSet: (teamId: string, setId: string, format: ExportFormat, includeComments: boolean) =>
    get<{ format: ExportFormat; fileName: string; content: string }>(
      `${team(teamId)}/sets/${id(setId)}/export${query({ format, includeComments: includeComments ? "1" : undefined })}`,
    ),
  importIntoSet: (teamId: string, setId: string, options: ImportOptions & { mode?: "append" | "replace"; insertAt?: "top" | "bottom" }) =>
    send<{ ok: true; imported: number }>("POST", `${team(teamId)}/sets/${id(setId)}/import`, options),
  importNewSet: (teamId: string, options: ImportOptions & { setName?: string }) =>
    send<{ ok: true; imported: number; set: SetFields }>("POST", `${team(teamId)}/sets/import`, options),

  todos: (teamId: string, setId: string) => get<TodoList>(`${team(teamId)}/sets/${id(setId)}/todos`),
  createTodo: async (teamId: string, setId: string, title: string, parentId: string | null) =>
    (await send<{ todo: Todo }>("POST", `${team(teamId)}/sets/${id(setId)}/todos`, { title, parentId })).todo,
  patchTodo: (teamId: string, todoId: string, patch: Partial<Pick<Todo, "title" | "completed" | "sortOrder">>) =>
    send<{ ok: true }>("PATCH", `${team(teamId)}/todos/${id(todoId)}`, patch),
  deleteTodo: (teamId: string, todoId: string) => send<{ ok: true }>("DELETE", `${team(teamId)}/todos/${id(todoId)}`),
  reorderTodos: (teamId: string, setId: string, items: SortItem[]) => send<{ ok: true }>("POST", `${team(teamId)}/todos/reorder`, { items, setId }),
  moveTodo: (teamId: string, todoId: string, targetSetId: string, insertAt: "top" | "bottom" = "bottom") =>
    send<{ ok: true }>("POST", `${team(teamId)}/todos/${id(todoId)}/move`, { targetSetId, insertAt }),
  setAssignees: (teamId: string, todoId: string, userIds: string[]) =>
    send<{ ok: true; assignees: Member[] }>("PUT", `${team(teamId)}/todos/${id(todoId)}/assignees`, { userIds }),
  members: async (teamId: string) => (await get<{ members: Member[] }>(`${team(teamId)}/members`)).members,
  assignedToMe: (teamId: string) => get<{ groups: AssignedGroup[]; expand: Record<string, boolean> }>(`${team(teamId)}/assigned-to-me`),
  setAssignedExpanded: (teamId: string, setId: string, expanded: boolean) => send<{ ok: true }>("POST", `${team(teamId)}/assigned-expand`, { setId, expanded }),

  comments: async (teamId: string, todoId: string) => (await get<{ comments: Comment[] }>(`${team(teamId)}/todos/${id(todoId)}/comments`)).comments,
  addComment: async (teamId: string, todoId: string, body: string) =>
    (await send<{ comment: Comment }>("POST", `${team(teamId)}/todos/${id(todoId)}/comments`, { body })).comment,
  deleteComment: (teamId: string, commentId: string) => send<{ ok: true }>("DELETE", `${team(teamId)}/comments/${id(commentId)}`),

  teamSettings: async (teamId: string) => (await get<{ settings: TeamSettings }>(`${team(teamId)}/settings`)).settings,
  patchTeamSettings: async (teamId: string, patch: Partial<TeamSettings>) =>
    (await send<{ settings: TeamSettings }>("PATCH", `${team(teamId)}/settings`, patch)).settings,
  permissions: async (teamId: string) => (await get<{ permissions: PermissionMatrix }>(`${team(teamId)}/permissions`)).permissions,
  putPermissions: async (teamId: string, matrix: Partial<PermissionMatrix>) =>
    (await send<{ permissions: PermissionMatrix }>("PUT", `${team(teamId)}/permissions`, matrix)).permissions,
  setPermissions: async (teamId: string, setId: string) =>
    (await get<{ permissions: SetOverrides }>(`${team(teamId)}/sets/${id(setId)}/permissions`)).permissions,
  putSetPermissions: async (teamId: string, setId: string, overrides: SetOverrides) =>
    (await send<{ permissions: SetOverrides }>("PUT", `${team(teamId)}/sets/${id(setId)}/permissions`, overrides)).permissions,

  userSettings: async () => (await get<{ settings: UserSettings }>("/api/user/settings")).settings,
  putUserSettings: async (patch: UserSettings) => (await send<{ settings: UserSettings }>("PUT", "/api/user/settings", patch)).settings,
};
