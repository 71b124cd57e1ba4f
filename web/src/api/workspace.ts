import { ACTION_KEYS, type ActionKey, PERMISSION_KEYS, type PermissionKey, WORKSPACE_ROLES, type WorkspaceRole } from "../../../src/contract/workspace.ts";
import type { Ok } from "../../../src/contract/api/common.ts";
import type {
  AssignedGroup,
  AssignedToMe,
  AssigneesSet,
  CommentList,
  CreatedComment,
  CreatedSet,
  CreatedTodo,
  DueSoon,
  DueSoonTodo,
  ExportedSet,
  ExportFormat,
  ImportedIntoSet,
  ImportedNewSet,
  MemberList,
  SetList,
  TodoList,
  TodoSet,
  WorkspaceLogout,
  WorkspaceMe,
} from "../../../src/contract/api/workspace.ts";
import type { Comment, Member, PermissionMatrix, Permissions, SetFields, SetOverrides, SortItem, Todo } from "../../../src/contract/api/workspace-records.ts";
import type {
  MatrixAnswer,
  OverridesAnswer,
  TeamSettings,
  TeamSettingsAnswer,
  UserSettings,
  UserSettingsAnswer,
} from "../../../src/contract/api/workspace-settings.ts";
import type { MailStatus } from "../../../src/contract/api/workspace-mail.ts";
import { query, request } from "./http.ts";

// The contract's lists and answers (spec 2 sections 2 to 4, spec 3 sections 2.3 and 2.4), as the SPA reads them.
export { ACTION_KEYS, PERMISSION_KEYS, WORKSPACE_ROLES };
export type {
  ActionKey,
  AssignedGroup,
  Comment,
  DueSoonTodo,
  ExportFormat,
  MailStatus,
  Member,
  PermissionKey,
  PermissionMatrix,
  Permissions,
  SetFields,
  SetOverrides,
  SortItem,
  TeamSettings,
  Todo,
  TodoList,
  TodoSet,
  UserSettings,
  WorkspaceMe,
  WorkspaceRole,
};

export type SetPatch = Partial<Pick<TodoSet, "name" | "autoRenew" | "renewTime" | "timezone" | "splitCompleted">>;
export type ImportOptions = { format: ExportFormat; content: string; includeComments?: boolean };

/** The action bar of a user who never chose one (their settings are `{}` until they save). */
export const DEFAULT_ACTION_BAR: ActionKey[] = ["add_after", "add_subtodo", "edit", "complete", "assign", "comment", "move", "delete"];

const team = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;
const id = encodeURIComponent;
const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the workspace API (spec 2 section 4, spec 3 sections 4.2 and 4.3, ARCHITECTURE section 4). */
export const workspaceApi = {
  me: () => get<WorkspaceMe>("/api/workspace/me"),
  logout: () => send<WorkspaceLogout>("POST", "/api/workspace/logout"),

  sets: (teamId: string) => get<SetList>(`${team(teamId)}/sets`),
  createSet: async (teamId: string, name: string) => (await send<CreatedSet>("POST", `${team(teamId)}/sets`, { name })).set,
  patchSet: (teamId: string, setId: string, patch: SetPatch) => send<Ok>("PATCH", `${team(teamId)}/sets/${id(setId)}`, patch),
  deleteSet: (teamId: string, setId: string) => send<Ok>("DELETE", `${team(teamId)}/sets/${id(setId)}`),
  reorderSets: (teamId: string, items: SortItem[]) => send<Ok>("POST", `${team(teamId)}/sets/reorder`, { items }),
  exportSet: (teamId: string, setId: string, format: ExportFormat, includeComments: boolean) =>
    get<ExportedSet>(`${team(teamId)}/sets/${id(setId)}/export${query({ format, includeComments: includeComments ? "1" : undefined })}`),
  importIntoSet: (teamId: string, setId: string, options: ImportOptions & { mode?: "append" | "replace"; insertAt?: "top" | "bottom" }) =>
    send<ImportedIntoSet>("POST", `${team(teamId)}/sets/${id(setId)}/import`, options),
  importNewSet: (teamId: string, options: ImportOptions & { setName?: string }) => send<ImportedNewSet>("POST", `${team(teamId)}/sets/import`, options),

  /** The whole list, or with `limit` (and the `cursor` an answer gave) one page of it. */
  todos: (teamId: string, setId: string, page?: { limit: number; cursor?: string }) =>
    get<TodoList>(`${team(teamId)}/sets/${id(setId)}/todos${query({ limit: page ? String(page.limit) : undefined, cursor: page?.cursor })}`),
  createTodo: async (teamId: string, setId: string, title: string, parentId: string | null, due?: Pick<Todo, "dueDate" | "dueTime">) =>
    (await send<CreatedTodo>("POST", `${team(teamId)}/sets/${id(setId)}/todos`, { title, parentId, ...due })).todo,
  patchTodo: (teamId: string, todoId: string, patch: Partial<Pick<Todo, "title" | "completed" | "sortOrder" | "dueDate" | "dueTime">>) =>
    send<Ok>("PATCH", `${team(teamId)}/todos/${id(todoId)}`, patch),
  deleteTodo: (teamId: string, todoId: string) => send<Ok>("DELETE", `${team(teamId)}/todos/${id(todoId)}`),
  reorderTodos: (teamId: string, setId: string, items: SortItem[]) => send<Ok>("POST", `${team(teamId)}/todos/reorder`, { items, setId }),
  moveTodo: (teamId: string, todoId: string, targetSetId: string, insertAt: "top" | "bottom" = "bottom") =>
    send<Ok>("POST", `${team(teamId)}/todos/${id(todoId)}/move`, { targetSetId, insertAt }),
  setAssignees: (teamId: string, todoId: string, userIds: string[]) => send<AssigneesSet>("PUT", `${team(teamId)}/todos/${id(todoId)}/assignees`, { userIds }),
  members: async (teamId: string) => (await get<MemberList>(`${team(teamId)}/members`)).members,
  assignedToMe: (teamId: string) => get<AssignedToMe>(`${team(teamId)}/assigned-to-me`),
  dueSoon: async (teamId: string) => (await get<DueSoon>(`${team(teamId)}/due-soon`)).todos,
  setAssignedExpanded: (teamId: string, setId: string, expanded: boolean) => send<Ok>("POST", `${team(teamId)}/assigned-expand`, { setId, expanded }),

  comments: async (teamId: string, todoId: string) => (await get<CommentList>(`${team(teamId)}/todos/${id(todoId)}/comments`)).comments,
  addComment: async (teamId: string, todoId: string, body: string) =>
    (await send<CreatedComment>("POST", `${team(teamId)}/todos/${id(todoId)}/comments`, { body })).comment,
  deleteComment: (teamId: string, commentId: string) => send<Ok>("DELETE", `${team(teamId)}/comments/${id(commentId)}`),

  teamSettings: async (teamId: string) => (await get<TeamSettingsAnswer>(`${team(teamId)}/settings`)).settings,
  patchTeamSettings: async (teamId: string, patch: Partial<TeamSettings>) =>
    (await send<TeamSettingsAnswer>("PATCH", `${team(teamId)}/settings`, patch)).settings,
  permissions: async (teamId: string) => (await get<MatrixAnswer>(`${team(teamId)}/permissions`)).permissions,
  putPermissions: async (teamId: string, matrix: Partial<PermissionMatrix>) =>
    (await send<MatrixAnswer>("PUT", `${team(teamId)}/permissions`, matrix)).permissions,
  setPermissions: async (teamId: string, setId: string) => (await get<OverridesAnswer>(`${team(teamId)}/sets/${id(setId)}/permissions`)).permissions,
  putSetPermissions: async (teamId: string, setId: string, overrides: SetOverrides) =>
    (await send<OverridesAnswer>("PUT", `${team(teamId)}/sets/${id(setId)}/permissions`, overrides)).permissions,

  userSettings: async () => (await get<UserSettingsAnswer>("/api/user/settings")).settings,
  putUserSettings: async (patch: UserSettings) => (await send<UserSettingsAnswer>("PUT", "/api/user/settings", patch)).settings,
  /** Issue 44: whether mail is set up, and the address notices go to (asked of the IdP on the spot). */
  mailStatus: () => get<MailStatus>("/api/workspace/mail"),
};
