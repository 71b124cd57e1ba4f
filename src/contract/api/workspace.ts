import { type Static, Type } from "@sinclair/typebox";
import { oneOf, orNull } from "./common.ts";
import { Comment, Member, Permissions, SetCounts, SetFields, Todo, WorkspaceRoleSchema } from "./workspace-records.ts";

// The workspace API's answers (spec 2 section 4, ARCHITECTURE section 4): sets, todos, comments.

/** One of the user's teams as the IdP named it (`teams` claim): the role is the IdP's word. */
export const WorkspaceTeam = Type.Object({ id: Type.String(), name: Type.String(), role: Type.String(), groups: Type.Array(Type.String()) });
export type WorkspaceTeam = Static<typeof WorkspaceTeam>;

/** `GET /api/workspace/me`. */
export const WorkspaceMe = Type.Object({
  user: Type.Object({ id: Type.String(), username: Type.String(), name: Type.String(), email: Type.String(), picture: Type.String() }),
  teams: Type.Array(WorkspaceTeam),
});
export type WorkspaceMe = Static<typeof WorkspaceMe>;

/**
 * `POST /api/workspace/logout`: the workspace session ended; `redirect_to` is the identity
 * provider's logout (RP-initiated, with the ID token hint) for the browser to open so that its
 * session ends too, or null when there is none to end (no workspace session, or no IdP logout).
 */
export const WorkspaceLogout = Type.Object({ ok: Type.Literal(true), redirect_to: orNull(Type.String()) });
export type WorkspaceLogout = Static<typeof WorkspaceLogout>;

/** A set as the list endpoint answers it: with its counts. */
export const TodoSet = Type.Composite([SetFields, SetCounts]);
export type TodoSet = Static<typeof TodoSet>;

export const SetList = Type.Object({ sets: Type.Array(TodoSet), role: WorkspaceRoleSchema });
export type SetList = Static<typeof SetList>;

export const CreatedSet = Type.Object({ set: SetFields });
export type CreatedSet = Static<typeof CreatedSet>;

export const ExportFormat = oneOf(["md", "json", "yaml"]);
export type ExportFormat = Static<typeof ExportFormat>;

export const ExportedSet = Type.Object({ format: ExportFormat, fileName: Type.String(), content: Type.String() });
export type ExportedSet = Static<typeof ExportedSet>;

export const ImportedIntoSet = Type.Object({ ok: Type.Literal(true), imported: Type.Number() });
export type ImportedIntoSet = Static<typeof ImportedIntoSet>;
export const ImportedNewSet = Type.Object({ ok: Type.Literal(true), imported: Type.Number(), set: SetFields });
export type ImportedNewSet = Static<typeof ImportedNewSet>;

/** Spec 2 section 4.2: a set's todos (sub-todos included), with the caller's role and permissions there. */
/**
 * The list (spec 2 section 4.2). With `limit` or `cursor` (issue 43) it is one page, and
 * `nextCursor` says where the next one starts (null: the last page); without them it is absent.
 */
export const TodoList = Type.Object({
  todos: Type.Array(Todo),
  role: WorkspaceRoleSchema,
  permissions: Permissions,
  nextCursor: Type.Optional(orNull(Type.String())),
});
export type TodoList = Static<typeof TodoList>;

export const CreatedTodo = Type.Object({ todo: Todo });
export type CreatedTodo = Static<typeof CreatedTodo>;

export const AssigneesSet = Type.Object({ ok: Type.Literal(true), assignees: Type.Array(Member) });
export type AssigneesSet = Static<typeof AssigneesSet>;

export const MemberList = Type.Object({ members: Type.Array(Member) });
export type MemberList = Static<typeof MemberList>;

/** An open todo assigned to the caller, as assigned-to-me lists it. */
const AssignedTodo = Type.Object({
  id: Type.String(),
  setId: Type.String(),
  parentId: orNull(Type.String()),
  title: Type.String(),
  completed: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const AssignedGroup = Type.Object({ setId: Type.String(), setName: Type.String(), todos: Type.Array(AssignedTodo) });
export type AssignedGroup = Static<typeof AssignedGroup>;

/** A set with no `expand` entry is expanded. */
export const AssignedToMe = Type.Object({ groups: Type.Array(AssignedGroup), expand: Type.Record(Type.String(), Type.Boolean()) });
export type AssignedToMe = Static<typeof AssignedToMe>;

/** An open todo of the Due soon view: due within the next days, or overdue, read in `timezone` (its set's). */
export const DueSoonTodo = Type.Object({
  id: Type.String(),
  setId: Type.String(),
  setName: Type.String(),
  parentId: orNull(Type.String()),
  title: Type.String(),
  completed: Type.Boolean(),
  dueDate: Type.String(),
  dueTime: orNull(Type.String()),
  overdue: Type.Boolean(),
  timezone: Type.String(),
});
export type DueSoonTodo = Static<typeof DueSoonTodo>;
/** In due order: overdue first, undated never. */
export const DueSoon = Type.Object({ todos: Type.Array(DueSoonTodo) });
export type DueSoon = Static<typeof DueSoon>;

export const CommentList = Type.Object({ comments: Type.Array(Comment) });
export type CommentList = Static<typeof CommentList>;
export const CreatedComment = Type.Object({ comment: Comment });
export type CreatedComment = Static<typeof CreatedComment>;
