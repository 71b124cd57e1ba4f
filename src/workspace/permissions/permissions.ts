import { type Matrix, PERMISSION_KEYS, type PermissionKey, WORKSPACE_ROLES, type WorkspaceRole } from "../../contract/workspace.ts";
import { invalidRequest } from "../../shared/errors.ts";

/** What one caller may do in one set: every key, resolved. */
export type Permissions = Readonly<Record<PermissionKey, boolean>>;

/** A team's role -> key -> boolean matrix, or one set's overrides: only the entries that differ. */

const allKeys = (value: boolean) => Object.fromEntries(PERMISSION_KEYS.map((key) => [key, value])) as Record<PermissionKey, boolean>;

const MEMBER_KEYS: readonly PermissionKey[] = [
  "view_todos",
  "create_todos",
  "edit_own_todos",
  "delete_own_todos",
  "add_subtodos",
  "comment",
  "delete_own_comments",
];

/**
 * ARCHITECTURE section 4: owner and co-owner hold all; admin all but manage_settings; member the
 * list above. "Complete own" needs no key: spec 2 section 3 always allows it.
 */
export const DEFAULT_PERMISSIONS: Readonly<Record<WorkspaceRole, Permissions>> = {
  owner: allKeys(true),
  "co-owner": allKeys(true),
  admin: { ...allKeys(true), manage_settings: false },
  member: { ...allKeys(false), ...Object.fromEntries(MEMBER_KEYS.map((key) => [key, true])) },
};

/** Defaults, then the team matrix, then the set's overrides: the most specific entry wins. */
export function effectivePermissions(role: WorkspaceRole, teamMatrix?: Matrix | null, setOverrides?: Matrix | null): Permissions {
  return { ...DEFAULT_PERMISSIONS[role], ...teamMatrix?.[role], ...setOverrides?.[role] };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isRole = (value: string): value is WorkspaceRole => (WORKSPACE_ROLES as readonly string[]).includes(value);
const isKey = (value: string): value is PermissionKey => (PERMISSION_KEYS as readonly string[]).includes(value);

/**
 * Checks a matrix from a request body (team matrix or set overrides) and returns a fresh copy.
 * Unknown roles or keys and non-boolean values throw 400 `Invalid request` (no detail, so the
 * message is exactly the public text).
 */
export function validateMatrix(input: unknown): Matrix {
  if (!isPlainObject(input)) throw invalidRequest();
  const matrix: Matrix = {};
  for (const [role, entries] of Object.entries(input)) {
    if (!isRole(role) || !isPlainObject(entries)) throw invalidRequest();
    const row: Partial<Record<PermissionKey, boolean>> = {};
    for (const [key, value] of Object.entries(entries)) {
      if (!isKey(key) || typeof value !== "boolean") throw invalidRequest();
      row[key] = value;
    }
    matrix[role] = row;
  }
  return matrix;
}

// Spec 2 section 2.3 names the list's map "from create_todos through view_todos": every key,
// view_todos last.
const LIST_MAP_ORDER: readonly PermissionKey[] = [...PERMISSION_KEYS.filter((key) => key !== "view_todos"), "view_todos"];

/** The `permissions` map the todo list endpoint returns (spec 2 section 4.2). */
export function listPermissionsMap(perms: Permissions): Record<PermissionKey, boolean> {
  return Object.fromEntries(LIST_MAP_ORDER.map((key) => [key, perms[key] === true])) as Record<PermissionKey, boolean>;
}
