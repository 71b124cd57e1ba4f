import type { Ok } from "../../../src/contract/api/common.ts";
import type { CreatedLink, LinkList, ShareLink, SharedSet } from "../../../src/contract/api/share-links.ts";
import type { CreatedTodo } from "../../../src/contract/api/workspace.ts";
import type { EmailCodeGrant, EmailCodeRequested } from "../../../src/contract/api/workspace-mail.ts";
import type { ShareCapabilities as Capabilities, ShareCapability } from "../../../src/contract/workspace.ts";
import { query, request } from "./http.ts";
import type { Todo } from "./workspace.ts";

/** Spec 2 sections 2.4, 4.3 and 4.4: share links and their public side (the capabilities are the server's own list). */
export type { Capabilities, ShareLink, SharedSet };
/** In the order the dialogs show them. */
export const CAPABILITY_KEYS: ShareCapability[] = ["canView", "canCreate", "canEdit", "canComplete", "canDelete", "canReorder", "canComment"];
/** Who opens a restricted link: the address, and the grant of a verified code when the link requires one. */
export type Visitor = { email?: string; grant?: string };
export type ShareLinkInput = Partial<Capabilities & { name: string; allowedEmails: string; requireEmailCode: boolean }>;

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

  open: (token: string, visitor: Visitor = {}) => data(request<SharedSet>("GET", `${shared(token)}${query(visitor)}`)),
  createTodo: async (token: string, title: string, parentId: string | null, visitor: Visitor = {}) =>
    (await data(request<CreatedTodo>("POST", `${shared(token)}/todos`, { title, parentId, ...visitor }))).todo,
  patchTodo: (token: string, todoId: string, patch: Partial<Pick<Todo, "title" | "completed" | "sortOrder">>, visitor: Visitor = {}) =>
    data(request<Ok>("PATCH", `${shared(token)}/todos/${id(todoId)}`, { ...patch, ...visitor })),
  deleteTodo: (token: string, todoId: string, visitor: Visitor = {}) => data(request<Ok>("DELETE", `${shared(token)}/todos/${id(todoId)}${query(visitor)}`)),
  reorder: (token: string, items: { id: string; sortOrder: number }[], visitor: Visitor = {}) =>
    data(request<Ok>("POST", `${shared(token)}/todos/reorder`, { items, ...visitor })),
  /** Issue 44: mails a one-time code to a listed address (the same 202 for any address). */
  requestCode: (token: string, email: string) => data(request<EmailCodeRequested>("POST", `${shared(token)}/email-code`, { email })),
  /** Issue 44: the code from the mail, for the grant the page then sends with the email. */
  verifyCode: (token: string, email: string, code: string) => data(request<EmailCodeGrant>("POST", `${shared(token)}/email-code/verify`, { email, code })),
  /** The live stream of the link's set (SSE, read-only). */
  eventsUrl: (token: string, visitor: Visitor = {}) => `${shared(token)}/events${query(visitor)}`,
  badgeUrl: (token: string) => `${shared(token)}/badge.svg`,
  checklistUrl: (token: string) => `${shared(token)}/todo-list.svg`,
};
