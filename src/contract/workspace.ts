/** Spec 2 section 2.3, in the spec's order. */
export const PERMISSION_KEYS = [
  "view_todos",
  "create_todos",
  "edit_own_todos",
  "edit_any_todo",
  "delete_own_todos",
  "delete_any_todo",
  "complete_any_todo",
  "add_subtodos",
  "assign_todos",
  "reorder_todos",
  "comment",
  "delete_own_comments",
  "delete_any_comment",
  "manage_sets",
  "manage_set_links",
  "manage_settings",
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

// The workspace learns roles from the IdP's `teams` claim and may sign in through another
// Cairn (ARCHITECTURE section 4), so it names the roles itself rather than importing the IdP's table.
export const WORKSPACE_ROLES = ["owner", "co-owner", "admin", "member"] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Spec 3 section 2.4 action_bar keys, in the spec's order. */
export const ACTION_KEYS = ["add_before", "add_after", "add_subtodo", "edit", "complete", "assign_self", "assign", "comment", "move", "delete"] as const;
export type ActionKey = (typeof ACTION_KEYS)[number];

/** Per role, the permissions that differ from the defaults (a team's matrix, a set's overrides). */
export type Matrix = Partial<Record<WorkspaceRole, Partial<Record<PermissionKey, boolean>>>>;

/** What a share link may let its visitors do (spec 2 section 2.4). */
export const SHARE_CAPABILITIES = ["canView", "canCreate", "canEdit", "canComplete", "canDelete", "canComment", "canReorder"] as const;
export type ShareCapability = (typeof SHARE_CAPABILITIES)[number];
export type ShareCapabilities = Record<ShareCapability, boolean>;
