import { AppError } from "../../shared/errors.ts";

// The workspace API's public error texts (spec 2 section 4 error tables), exactly as the spec
// words them, each with its machine code; the todo table and a link's refusals are in
// todos/todos.errors.ts. `detail` is for the log only.

// Shared by sets, todos, comments and links.
export const setNotFound = () => new AppError("set_not_found", 404, "Set not found");
export const todoNotFound = () => new AppError("todo_not_found", 404, "Not found");
export const noUpdates = () => new AppError("no_updates", 400, "No updates");
export const noItems = () => new AppError("no_items", 400, "No items");

// Spec 2 section 4.1, sets.
export const nameRequired = () => new AppError("set_name_required", 400, "Name is required");
export const nameTaken = () => new AppError("set_name_taken", 409, "Todo list name already exists in this team");
export const noPermissionToManageSets = () => new AppError("no_permission_to_manage_sets", 403, "No permission to manage sets");
export const forbiddenSetDelete = () => new AppError("no_permission_to_delete_set", 403, "Forbidden", "neither the set's creator nor holding manage_sets");
export const noPermissionToExport = () => new AppError("no_permission_to_export", 403, "No permission to export this set");
export const noPermissionToImport = () => new AppError("no_permission_to_import", 403, "No permission to import into this set");
export const noPermissionToReplace = () => new AppError("no_permission_to_replace", 403, "No permission to replace set content");
export const setIdTaken = () => new AppError("set_id_taken", 409, "Set id already exists");

// Spec 2 sections 4.3 and 4.4, share links and their visitors.
export const noPermissionToManageLinks = () => new AppError("no_permission_to_manage_links", 403, "No permission to manage set links");
export const linkNotFound = () => new AppError("link_not_found", 404, "Share link not found");
export const accessDenied = (onRead: boolean, requiresEmailCode = false) =>
  new AppError(
    "link_access_denied",
    403,
    "Access denied",
    requiresEmailCode ? "email missing, not on the allow-list, or without a verified code" : "email missing or not on the allow-list",
    onRead ? { fields: { requiresEmail: true, ...(requiresEmailCode && { requiresEmailCode }) } } : {},
  );

/** What a link may not allow, as its refusal names it. */
export type LinkAction = "viewing" | "creating todos" | "editing" | "completing" | "reordering" | "deleting";
export const linkRefusal = (what: LinkAction) => new AppError(`link_does_not_allow_${what.replaceAll(" ", "_")}`, 403, `This link does not allow ${what}`);

// Comments: the spec leaves their errors open ("not shown"); these follow the todo table's wording.
export const commentRequired = () => new AppError("comment_required", 400, "Comment is required");
export const noPermissionToComment = () => new AppError("no_permission_to_comment", 403, "No permission to comment");
export const noPermissionToDeleteComment = () => new AppError("no_permission_to_delete_comment", 403, "No permission to delete comment");
export const commentNotFound = () => new AppError("comment_not_found", 404, "Comment not found");
