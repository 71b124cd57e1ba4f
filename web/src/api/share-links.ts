import type { Ok } from "../../../src/contract/api/common.ts";
import type { CreatedLink, LinkList, ShareLink, SharedSet } from "../../../src/contract/api/share-links.ts";
import type { CreatedTodo } from "../../../src/contract/api/workspace.ts";
import type { ShareCapabilities as Capabilities, ShareCapability } from "../../../src/contract/workspace.ts";
import { query, request } from "./http.ts";
import type { Todo } from "./workspace.ts";

/** Spec 2 sections 2.4, 4.3 and 4.4: share links and their public side (the capabilities are the server's own list). */
export type { Capabilities, ShareLink, SharedSet };
/** In the order the dialogs show them. */
export const CAPABILITY_KEYS: ShareCapability[] = ["canView", "canCreate", "canEdit", "canComplete", "canDelete", "canReorder", "canComment"];
export type ShareLinkInput = Partial<Capabilities & { name: string; allowedEmails: string }>;

const team = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;
const shared = (token: string) => `/api/shared/${encodeURIComponent(token)}`;
const id = encodeURIComponent;
const data = async <T>(p: Promise<{ data: T }>) => (await p).data;

/** Management (members with manage_set_links) and the public API of a link (no session). */
export const shareLinksApi = {
  forSet: async (teamId: string, setId: string) => (await data(request<LinkList>("GET", `${team(teamId)}/sets/${id(setId)}/share-links`))).links,
  forTeam: async (teamId: string) => (await data(request<LinkList>("GET", `${team(teamId)}/share-links`))).links,
  create: async (teamId: string, setId: string, input: ShareLinkInput) =>
    (await data(request<CreatedLink>("POST", `${team(teamId)}/sets/${id(setId)}/share-links`, input))).link,
  update: (teamId: string, linkId: string, input: ShareLinkInput) => data(request<Ok>("PATCH", `${team(teamId)}/share-links/${id(linkId)}`, input)),
  remove: (teamId: string, linkId: string) => data(request<Ok>("DELETE", `${team(teamId)}/share-links/${id(linkId)}`)),

  open: (token: string, email?: string) => data(request<SharedSet>("GET", `${shared(token)}${query({ email })}`)),
  createTodo: async (token: string, title: string, parentId: string | null, email?: string) =>
    (await data(request<CreatedTodo>("POST", `${shared(token)}/todos`, { title, parentId, email }))).todo,
  patchTodo: (token: string, todoId: string, patch: Partial<Pick<Todo, "title" | "completed" | "sortOrder">>, email?: string) =>
    data(request<Ok>("PATCH", `${shared(token)}/todos/${id(todoId)}`, { ...patch, email })),
  deleteTodo: (token: string, todoId: string, email?: string) => data(request<Ok>("DELETE", `${shared(token)}/todos/${id(todoId)}${query({ email })}`)),
  reorder: (token: string, items: { id: string; sortOrder: number }[], email?: string) =>
    data(request<Ok>("POST", `${shared(token)}/todos/reorder`, { items, email })),
  /** The live stream of the link's set (SSE, read-only). */
  eventsUrl: (token: string, email?: string) => `${shared(token)}/events${query({ email })}`,
  badgeUrl: (token: string) => `${shared(token)}/badge.svg`,
  checklistUrl: (token: string) => `${shared(token)}/todo-list.svg`,
};
