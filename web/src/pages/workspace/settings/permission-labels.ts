import type { PermissionKey, WorkspaceRole } from "../../../api/workspace.ts";

/** What each permission key (spec 2 section 2.3) lets a person do, in words. */
export const PERMISSION_LABELS: Record<PermissionKey, string> = {
  view_todos: "View todos",
  create_todos: "Create todos",
  edit_own_todos: "Edit own todos",
  edit_any_todo: "Edit anyone's todos",
  delete_own_todos: "Delete own todos",
  delete_any_todo: "Delete anyone's todos",
  complete_any_todo: "Complete anyone's todos",
  add_subtodos: "Add sub-todos",
  assign_todos: "Assign todos",
  reorder_todos: "Reorder todos",
  comment: "Comment",
  delete_own_comments: "Delete own comments",
  delete_any_comment: "Delete anyone's comments",
  manage_sets: "Manage sets",
  manage_set_links: "Manage share links",
  manage_settings: "Manage settings",
};

export const ROLE_LABELS: Record<WorkspaceRole, string> = {
  owner: "Owner",
  "co-owner": "Co-owner",
  admin: "Admin",
  member: "Member",
};
