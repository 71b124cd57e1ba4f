import { owns, type WorkspaceActor } from "./actor.ts";
import type { Permissions } from "./permissions.ts";

// Pure checks the services call for every actor (CONVENTIONS principle 6): `perms` is what the
// actor may do in the set concerned (permissionsOf: a member's matrix, a link's capabilities).
// A "*_any_*" key also covers the actor's own items: spec 2 section 4.2 words delete and move as
// "own ... or any", and PATCH title follows the same rule. Only a member owns anything.

export type TodoPatchField = "title" | "completed" | "sortOrder" | "due";

export const canViewSet = (_actor: WorkspaceActor, perms: Permissions): boolean => perms.view_todos;

/** Spec 2 section 4.2: create_todos, plus add_subtodos when a parent is given. */
export function missingCreateKey(
  _actor: WorkspaceActor,
  perms: Permissions,
  { parentId }: { parentId?: string | null },
): "create_todos" | "add_subtodos" | null {
  if (!perms.create_todos) return "create_todos";
  if (parentId != null && !perms.add_subtodos) return "add_subtodos";
  return null;
}

export const canCreateTodo = (actor: WorkspaceActor, perms: Permissions, target: { parentId?: string | null }): boolean =>
  missingCreateKey(actor, perms, target) === null;

/** Changing a todo's title or due date (PATCH), and taking it out of its set on move. */
export const canEditTodo = (actor: WorkspaceActor, perms: Permissions, { ownerId }: { ownerId: string }): boolean =>
  perms.edit_any_todo || (owns(actor, ownerId) && perms.edit_own_todos);

/** Spec 2 section 4.2 "Field permissions on PATCH". */
function canPatchField(actor: WorkspaceActor, perms: Permissions, field: TodoPatchField, { ownerId }: { ownerId: string }): boolean {
  switch (field) {
    case "title":
    case "due":
      return canEditTodo(actor, perms, { ownerId });
    case "completed":
      // Spec 2 section 3: completing one's own todo is always allowed.
      return owns(actor, ownerId) || perms.complete_any_todo;
    case "sortOrder":
      return perms.reorder_todos;
  }
}

/** The first field the caller may not change, so the service can name it in its 403; null when all pass. */
export function findRefusedField(
  actor: WorkspaceActor,
  perms: Permissions,
  { ownerId, fields }: { ownerId: string; fields: Iterable<TodoPatchField> },
): TodoPatchField | null {
  for (const field of fields) if (!canPatchField(actor, perms, field, { ownerId })) return field;
  return null;
}

export const canPatchTodo = (actor: WorkspaceActor, perms: Permissions, patch: { ownerId: string; fields: Iterable<TodoPatchField> }): boolean =>
  findRefusedField(actor, perms, patch) === null;

export const canDeleteTodo = (actor: WorkspaceActor, perms: Permissions, { ownerId }: { ownerId: string }): boolean =>
  perms.delete_any_todo || (owns(actor, ownerId) && perms.delete_own_todos);

export const canAssign = (_actor: WorkspaceActor, perms: Permissions): boolean => perms.assign_todos;
export const canReorder = (_actor: WorkspaceActor, perms: Permissions): boolean => perms.reorder_todos;
export const canComment = (_actor: WorkspaceActor, perms: Permissions): boolean => perms.comment;

export const canDeleteComment = (actor: WorkspaceActor, perms: Permissions, { ownerId }: { ownerId: string }): boolean =>
  perms.delete_any_comment || (owns(actor, ownerId) && perms.delete_own_comments);

/**
 * Spec 2 section 2.3: `allow_member_create_sets` lifts the manage_sets restriction for creating
 * sets only. "member" there means any team member (spec 2 section 4 uses it so in its Auth
 * columns), so the setting also covers an admin whose manage_sets a matrix took away; `role` is
 * accepted for callers but does not narrow it.
 */
export function canManageSets(
  actor: WorkspaceActor,
  perms: Permissions,
  { allowMemberCreateSets, action }: { allowMemberCreateSets: boolean; action: "create" | "other" },
): boolean {
  return actor.kind === "member" && (perms.manage_sets || (action === "create" && allowMemberCreateSets));
}

/** Spec 2 section 4.1: PATCH and DELETE of a set need manage_sets or being its creator. */
export const canPatchSet = (actor: WorkspaceActor, perms: Permissions, { creatorId }: { creatorId: string }): boolean =>
  actor.kind === "member" && (perms.manage_sets || owns(actor, creatorId));

/** Spec 2 section 4.2 move: edit rights in the source set and create_todos in the target. */
export const canMoveTodo = (actor: WorkspaceActor, source: Permissions, target: Permissions, { ownerId }: { ownerId: string }): boolean =>
  canEditTodo(actor, source, { ownerId }) && target.create_todos;

export const canManageLinks = (actor: WorkspaceActor, perms: Permissions): boolean => actor.kind === "member" && perms.manage_set_links;

/** Spec 3 section 4.2: manage_settings, or owner / co-owner whatever the matrix says (no lock-out). */
export const canManageSettings = (actor: WorkspaceActor, perms: Permissions): boolean =>
  actor.kind === "member" && (perms.manage_settings || actor.role === "owner" || actor.role === "co-owner");

/** Spec 2 section 4.1: import needs create_todos; replace mode also manage_sets. */
export const canImport = (actor: WorkspaceActor, perms: Permissions, { mode }: { mode: "append" | "replace" }): boolean =>
  actor.kind === "member" && perms.create_todos && (mode !== "replace" || perms.manage_sets);

export const canExport = (_actor: WorkspaceActor, perms: Permissions): boolean => perms.view_todos;
