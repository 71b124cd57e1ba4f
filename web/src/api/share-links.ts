import { query, request } from "./http.ts";
import type { Todo } from "./workspace.ts";

import type { ShareCapabilities as Capabilities, ShareCapability } from "../../../src/contract/workspace.ts";

/** Spec 2 sections 2.4, 4.3 and 4.4: share links and their public side (the capabilities are the server's own list). */
export type { Capabilities };
/** In the order the dialogs show them. */
export const CAPABILITY_KEYS: ShareCapability[] = ["canView", "canCreate", "canEdit", "canComplete", "canDelete", "canReorder", "canComment"];
export type ShareLink = Capabilities & {
  id: string;
  setId: string;
  setName?: string;
  token: string;
  name: string;
  allowedEmails: string;
  createdBy: string;
  createdAt: string;
};
export type ShareLinkInput = Partial<Capabilities & { name: string; allowedEmails: string }>;

export type SharedSet = { set: { id: string; name: string }; permissions: Capabilities; requiresEmail: boolean; todos: Todo[] };

const team = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;
const shared = (token: string) => `/api/shared/${encodeURIComponent(token)}`;
const id = encodeURIComponent;
const data = async <T>(p: Promise<{ data: T }>) => (await p).data;

/** Management (members with manage_set_links) and the public API of a link (no session). */
export const shareLinksApi = {
  forSet: async (teamId: string, setId: string) => (await data(request<{ links: ShareLink[] }>("GET", `${team(teamId)}/sets/${id(setId)}/share-links`))).links,
  forTeam: async (teamId: string) => (await data(request<{ links: ShareLink[] }>("GET", `${team(teamId)}/share-links`))).links,
  create: async (teamId: string, setId: string, input: ShareLinkInput) =>
    (await data(request<{ link: ShareLink }>("POST", `${team(teamId)}/sets/${id(setId)}/share-links`, input))).link,
  update: (teamId: string, linkId: string, input: ShareLinkInput) => data(request<{ ok: true }>("PATCH", `${team(teamId)}/share-links/${id(linkId)}`, input)),
  remove: (teamId: string, linkId: string) => data(request<{ ok: true }>("DELETE", `${team(teamId)}/share-links/${id(linkId)}`)),

  open: (token: string, email?: string) => data(request<SharedSet>("GET", `${shared(token)}${query({ email })}`)),
  createTodo: async (token: string, title: string, parentId: string | null, email?: string) =>
    (await data(request<{ todo: Todo }>("POST", `${shared(token)}/todos`, { title, parentId, email }))).todo,
  patchTodo: (token: string, todoId: string, patch: Partial<Pick<Todo, "title" | "completed" | "sortOrder">>, email?: string) =>
    data(request<{ ok: true }>("PATCH", `${shared(token)}/todos/${id(todoId)}`, { ...patch, email })),
  deleteTodo: (token: string, todoId: string, email?: string) =>
    data(request<{ ok: true }>("DELETE", `${shared(token)}/todos/${id(todoId)}${query({ email })}`)),
  reorder: (token: string, items: { id: string; sortOrder: number }[], email?: string) =>
    data(request<{ ok: true }>("POST", `${shared(token)}/todos/reorder`, { items, email })),
  /** The live stream of the link's set (SSE, read-only). */
  eventsUrl: (token: string, email?: string) => `${shared(token)}/events${query({ email })}`,
  badgeUrl: (token: string) => `${shared(token)}/badge.svg`,
  checklistUrl: (token: string) => `${shared(token)}/todo-list.svg`,
};
