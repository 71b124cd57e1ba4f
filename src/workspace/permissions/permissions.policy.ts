import type { WorkspaceRole } from "../../contract/workspace.ts";
import type { Permissions } from "./permissions.ts";

// Pure checks the services call (CONVENTIONS principle 6). `perms` is effectivePermissions() for
// the caller in the set concerned. A "*_any_*" key also covers the caller's own items: spec 2
// section 4.2 words delete and move as "own ... or any", and PATCH title follows the same rule.

export type TodoPatchField = "title" | "completed" | "sortOrder";

export const canViewSet = (perms: Permissions): boolean => perms.view_todos;

/** Spec 2 section 4.2: create_todos, plus add_subtodos when a parent is given. */
export function missingCreateKey(perms: Permissions, { parentId }: { parentId?: string | null }): "create_todos" | "add_subtodos" | null {
  if (!perms.create_todos) return "create_todos";
  if (parentId != null && !perms.add_subtodos) return "add_subtodos";
  return null;
}

export const canCreateTodo = (perms: Permissions, target: { parentId?: string | null }): boolean => missingCreateKey(perms, target) === null;

/** Changing a todo's title (PATCH title, and taking it out of its set on move). */
export const canEditTodo = (perms: Permissions, { isOwn }: { isOwn: boolean }): boolean =>
  perms.edit_any_todo || (isOwn && perms.edit_own_todos);

/** Spec 2 section 4.2 "Field permissions on PATCH". */
export function canPatchField(perms: Permissions, field: TodoPatchField, { isOwn }: { isOwn: boolean }): boolean {
  switch (field) {
    case "title":
      return canEditTodo(perms, { isOwn });
    case "completed":
      // Spec 2 section 3: completing one's own todo is always allowed.
      return isOwn || perms.complete_any_todo;
    case "sortOrder":
      return perms.reorder_todos;
  }
}

/** The first field the caller may not change, so the service can name it in its 403; null when all pass. */
export function findRefusedField(perms: Permissions, { isOwn, fields }: { isOwn: boolean; fields: Iterable<TodoPatchField> }): TodoPatchField | null {
  for (const field of fields) if (!canPatchField(perms, field, { isOwn })) return field;
  return null;
}

export const canPatchTodo = (perms: Permissions, patch: { isOwn: boolean; fields: Iterable<TodoPatchField> }): boolean =>
  findRefusedField(perms, patch) === null;

export const canDeleteTodo = (perms: Permissions, { isOwn }: { isOwn: boolean }): boolean =>
  perms.delete_any_todo || (isOwn && perms.delete_own_todos);

export const canAssign = (perms: Permissions): boolean => perms.assign_todos;
export const canReorder = (perms: Permissions): boolean => perms.reorder_todos;
export const canComment = (perms: Permissions): boolean => perms.comment;

export const canDeleteComment = (perms: Permissions, { isOwn }: { isOwn: boolean }): boolean =>
  perms.delete_any_comment || (isOwn && perms.delete_own_comments);

/**
 * Spec 2 section 2.3: `allow_member_create_sets` lifts the manage_sets restriction for creating
 * sets only. "member" there means any team member (spec 2 section 4 uses it so in its Auth
 * columns), so the setting also covers an admin whose manage_sets a matrix took away; `role` is
 * accepted for callers but does not narrow it.
 */
export function canManageSets(
  perms: Permissions,
  { allowMemberCreateSets, action }: { allowMemberCreateSets: boolean; role?: WorkspaceRole; action: "create" | "other" },
): boolean {
  return perms.manage_sets || (action === "create" && allowMemberCreateSets);
}

/** Spec 2 section 4.1: PATCH and DELETE of a set need manage_sets or being its creator. */
export const canPatchSet = (perms: Permissions, { isCreator }: { isCreator: boolean }): boolean => perms.manage_sets || isCreator;
export const canDeleteSet = canPatchSet;

/** Spec 2 section 4.2 move: edit rights in the source set and create_todos in the target. */
export const canMoveTodo = (source: Permissions, target: Permissions, { isOwn }: { isOwn: boolean }): boolean =>
  canEditTodo(source, { isOwn }) && target.create_todos;

export const canManageLinks = (perms: Permissions): boolean => perms.manage_set_links;

/** Spec 3 section 4.2: manage_settings, or owner / co-owner whatever the matrix says (no lock-out). */
export const canManageSettings = (perms: Permissions, role: WorkspaceRole): boolean =>
  perms.manage_settings || role === "owner" || role === "co-owner";

/** Spec 2 section 4.1: import needs create_todos; replace mode also manage_sets. */
export const canImport = (perms: Permissions, { mode }: { mode: "append" | "replace" }): boolean =>
  perms.create_todos && (mode !== "replace" || perms.manage_sets);

export const canExport = (perms: Permissions): boolean => perms.view_todos;
