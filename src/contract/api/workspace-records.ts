import { type Static, type TBoolean, type TSchema, Type } from "@sinclair/typebox";
import { oneOf, orNull } from "./common.ts";
import { PERMISSION_KEYS, SHARE_CAPABILITIES, WORKSPACE_ROLES, type WorkspaceRole } from "../workspace.ts";

// The workspace's JSON records (spec 2 section 2), as the API answers them and events carry them.

/** An object of one boolean per listed key, every key present. */
const flags = <K extends string>(keys: readonly K[]) => Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Boolean()])) as { [P in K]: TBoolean });
/** An object of one `schema` per role, every role present. */
const byRole = <S extends TSchema>(schema: S) => Type.Object(Object.fromEntries(WORKSPACE_ROLES.map((r) => [r, schema])) as { [R in WorkspaceRole]: S });

export const WorkspaceRoleSchema = oneOf(WORKSPACE_ROLES);

/** Spec 2 section 2.3: every permission key, as the todo list and the matrix answer them. */
export const Permissions = flags(PERMISSION_KEYS);
export type Permissions = Static<typeof Permissions>;

/** Every role with every key filled (a team's matrix as answered). */
export const PermissionMatrix = byRole(Permissions);
export type PermissionMatrix = Static<typeof PermissionMatrix>;

/** Per role, only the keys that differ from the team's matrix (a set's overrides). */
export const SetOverrides = Type.Partial(byRole(Type.Partial(Permissions)));
export type SetOverrides = Static<typeof SetOverrides>;

/** Spec 2 section 2.4: what a share link lets its visitors do. */
export const ShareCapabilities = flags(SHARE_CAPABILITIES);
export type ShareCapabilities = Static<typeof ShareCapabilities>;

/** A team member as todos, comments and the member list show them. */
export const Member = Type.Object({ userId: Type.String(), name: orNull(Type.String()), username: orNull(Type.String()), avatarUrl: orNull(Type.String()) });
export type Member = Static<typeof Member>;

/** Spec 2 section 2.2. */
export const Todo = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  parentId: orNull(Type.String()),
  title: Type.String(),
  completed: Type.Boolean(),
  sortOrder: Type.Number(),
  /** `YYYY-MM-DD`, a date in the set's time zone (contract/due-dates.ts). */
  dueDate: orNull(Type.String()),
  /** `HH:MM`, only with a dueDate. */
  dueTime: orNull(Type.String()),
  commentCount: Type.Number(),
  assignees: Type.Array(Member),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type Todo = Static<typeof Todo>;

/** Spec 2 section 2.1, as every answer and event shows a set. */
export const SetFields = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  name: Type.String(),
  sortOrder: Type.Number(),
  autoRenew: Type.Boolean(),
  renewTime: Type.String(),
  timezone: Type.String(),
  lastRenewedAt: orNull(Type.String()),
  splitCompleted: Type.Boolean(),
  createdAt: Type.String(),
});
export type SetFields = Static<typeof SetFields>;

/** Spec 2 section 2.1: the list endpoint only; counts of top-level todos. */
export const SetCounts = Type.Object({ total: Type.Number(), completed: Type.Number(), pending: Type.Number() });
export type SetCounts = Static<typeof SetCounts>;

export const Comment = Type.Object({
  id: Type.String(),
  todoId: Type.String(),
  userId: Type.String(),
  /** The Markdown as written. */
  body: Type.String(),
  /** The body as sanitized HTML: bold, italic, code, links, lists and line breaks only (issue 42). */
  bodyHtml: Type.String(),
  author: Member,
  createdAt: Type.String(),
});
export type Comment = Static<typeof Comment>;

/** Spec 2 section 4.1 and 4.2 reorder items: consistent integers chosen by the caller. */
export const SortItem = Type.Object({ id: Type.String(), sortOrder: Type.Number() });
export type SortItem = Static<typeof SortItem>;
