import { AppError } from "../../shared/errors.ts";
import type { WorkspaceActor } from "../permissions/actor.ts";
import { linkRefusal } from "../storage/workspace.errors.ts";

export { noItems, noUpdates, setNotFound, todoNotFound } from "../storage/workspace.errors.ts";

// Spec 2 section 4.2, todo error table: the exact public texts.
export const titleRequired = () => new AppError(400, "Title is required");
export const targetSetRequired = () => new AppError(400, "targetSetId is required");
const noPermissionKey = (key: string) => new AppError(403, `No permission: ${key}`);
const noPermissionToDelete = () => new AppError(403, "No permission to delete");
export const noPermissionToMove = () => new AppError(403, "No permission to move this todo");
export const noPermissionTarget = () => new AppError(403, "No permission to add todos to the target set");
export const noPermissionToAssign = () => new AppError(403, "No permission to assign todos");
export const parentNotFound = () => new AppError(404, "Parent todo not found");
export const targetSetNotFound = () => new AppError(404, "Target set not found");
export const duplicateTitle = () => new AppError(409, "Todo item title already exists among sibling todos");
export const assignmentUnavailable = () => new AppError(503, "Assignment feature unavailable: database migration required");

const PATCH_REFUSALS = {
  title: "No permission to edit",
  completed: "No permission to toggle completion",
  sortOrder: "No permission to reorder",
} as const;

/** What an actor was refused, named the way its error table words it. */
export type TodoRefusal = "create_todos" | "add_subtodos" | "title" | "completed" | "sortOrder" | "delete" | "reorder";

// Spec 2 section 4.4: a link's refusals name what the link does not allow.
const LINK_REFUSALS: Record<TodoRefusal, string> = {
  create_todos: "creating todos",
  add_subtodos: "creating todos",
  title: "editing",
  completed: "completing",
  sortOrder: "reordering",
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
      return new AppError(403, PATCH_REFUSALS[refusal]);
    case "delete":
      return noPermissionToDelete();
    case "reorder":
      return new AppError(403, PATCH_REFUSALS.sortOrder);
  }
}
