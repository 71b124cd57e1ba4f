import { AppError } from "../../shared/errors.ts";
import type { WorkspaceActor } from "../permissions/actor.ts";
import { type LinkAction, linkRefusal } from "../storage/workspace.errors.ts";

export { noItems, noUpdates, setNotFound, todoNotFound } from "../storage/workspace.errors.ts";

// Spec 2 section 4.2, todo error table: the exact public texts, each with its machine code.
export const titleRequired = () => new AppError("title_required", 400, "Title is required");
export const targetSetRequired = () => new AppError("target_set_required", 400, "targetSetId is required");
const noPermissionKey = (key: "create_todos" | "add_subtodos") => new AppError(`no_permission_${key}`, 403, `No permission: ${key}`);
const noPermissionToDelete = () => new AppError("no_permission_to_delete", 403, "No permission to delete");
export const noPermissionToMove = () => new AppError("no_permission_to_move", 403, "No permission to move this todo");
export const noPermissionTarget = () => new AppError("no_permission_to_add_to_target_set", 403, "No permission to add todos to the target set");
export const noPermissionToAssign = () => new AppError("no_permission_to_assign", 403, "No permission to assign todos");
export const parentNotFound = () => new AppError("parent_not_found", 404, "Parent todo not found");
export const targetSetNotFound = () => new AppError("target_set_not_found", 404, "Target set not found");
export const duplicateTitle = () => new AppError("title_taken", 409, "Todo item title already exists among sibling todos");
// Not in the spec (due dates are Cairn's own, ARCHITECTURE section 4b): worded like its table.
export const invalidDueDate = () => new AppError("invalid_due_date", 400, "dueDate must be a date as YYYY-MM-DD, or null");
export const invalidDueTime = () => new AppError("invalid_due_time", 400, "dueTime must be a time as HH:MM (24-hour), or null");
export const dueTimeWithoutDate = () => new AppError("due_time_without_date", 400, "dueTime needs a dueDate");
// The list's pages (issue 43), Cairn's own: worded like the table.
export const invalidCursor = () => new AppError("invalid_cursor", 400, "cursor must be a nextCursor this list answered");
export const sortWithPages = () => new AppError("sort_with_pages", 400, "sort cannot be combined with limit or cursor: pages come in creation order");
export const assignmentUnavailable = () => new AppError("assignment_unavailable", 503, "Assignment feature unavailable: database migration required");

const PATCH_REFUSALS = {
  title: ["no_permission_to_edit", "No permission to edit"],
  completed: ["no_permission_to_toggle_completion", "No permission to toggle completion"],
  sortOrder: ["no_permission_to_reorder", "No permission to reorder"],
  due: ["no_permission_to_edit", "No permission to edit"],
} as const;
const patchRefusal = (field: keyof typeof PATCH_REFUSALS) => {
  const [code, text] = PATCH_REFUSALS[field];
  return new AppError(code, 403, text);
};

/** What an actor was refused, named the way its error table words it. */
export type TodoRefusal = "create_todos" | "add_subtodos" | "title" | "completed" | "sortOrder" | "due" | "delete" | "reorder";

// Spec 2 section 4.4: a link's refusals name what the link does not allow.
const LINK_REFUSALS: Record<TodoRefusal, LinkAction> = {
  create_todos: "creating todos",
  add_subtodos: "creating todos",
  title: "editing",
  completed: "completing",
  sortOrder: "reordering",
  due: "editing",
  delete: "deleting",
  reorder: "reordering",
};

/** The 403 for a refused write: a member reads the todo error table, a link's visitor the link's. */
export function refused(actor: Pick<WorkspaceActor, "kind">, refusal: TodoRefusal): AppError {
  if (actor.kind === "share_link") return linkRefusal(LINK_REFUSALS[refusal]);
  switch (refusal) {
    case "create_todos":
    case "add_subtodos":
      return noPermissionKey(refusal);
    case "title":
    case "completed":
    case "sortOrder":
    case "due":
      return patchRefusal(refusal);
    case "delete":
      return noPermissionToDelete();
    case "reorder":
      return patchRefusal("sortOrder");
  }
}
