import { AppError } from "../../shared/errors.ts";

// The workspace API's public error texts (spec 2 section 4 error tables), exactly as the spec
// words them; the todo table and a link's refusals are in todos/todos.errors.ts. `detail` is for
// the log only.

// Shared by sets, todos, comments and links.
export const setNotFound = () => new AppError(404, "Set not found");
export const todoNotFound = () => new AppError(404, "Not found");
export const noUpdates = () => new AppError(400, "No updates");
export const noItems = () => new AppError(400, "No items");

// Spec 2 section 4.1, sets.
export const nameRequired = () => new AppError(400, "Name is required");
export const nameTaken = () => new AppError(409, "Todo list name already exists in this team");
export const noPermissionToManageSets = () => new AppError(403, "No permission to manage sets");
export const forbiddenSetDelete = () => new AppError(403, "Forbidden", "neither the set's creator nor holding manage_sets");
export const noPermissionToExport = () => new AppError(403, "No permission to export this set");
export const noPermissionToImport = () => new AppError(403, "No permission to import into this set");
export const noPermissionToReplace = () => new AppError(403, "No permission to replace set content");
export const setIdTaken = () => new AppError(409, "Set id already exists");

// Spec 2 sections 4.3 and 4.4, share links and their visitors.
export const noPermissionToManageLinks = () => new AppError(403, "No permission to manage set links");
export const linkNotFound = () => new AppError(404, "Share link not found");
export const accessDenied = (onRead: boolean) =>
  new AppError(403, "Access denied", "email missing or not on the allow-list", onRead ? { fields: { requiresEmail: true } } : {});
export const linkRefusal = (what: string) => new AppError(403, `This link does not allow ${what}`);

// Comments: the spec leaves their errors open ("not shown"); these follow the todo table's wording.
export const commentRequired = () => new AppError(400, "Comment is required");
export const noPermissionToComment = () => new AppError(403, "No permission to comment");
export const noPermissionToDeleteComment = () => new AppError(403, "No permission to delete comment");
export const commentNotFound = () => new AppError(404, "Comment not found");
