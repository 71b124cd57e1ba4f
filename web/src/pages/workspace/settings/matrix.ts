import { PERMISSION_KEYS, type PermissionKey, type PermissionMatrix, type SetOverrides, WORKSPACE_ROLES, type WorkspaceRole } from "../../../api/workspace.ts";

/** A copy of `matrix` with one cell changed. */
export function withCell(matrix: PermissionMatrix, role: WorkspaceRole, key: PermissionKey, value: boolean): PermissionMatrix {
  return { ...matrix, [role]: { ...matrix[role], [key]: value } };
}

export function sameMatrix(a: PermissionMatrix, b: PermissionMatrix): boolean {
  return WORKSPACE_ROLES.every((role) => PERMISSION_KEYS.every((key) => a[role][key] === b[role][key]));
}

/** The team matrix with a set's overrides applied: what members can do in that set. */
export function applyOverrides(team: PermissionMatrix, overrides: SetOverrides): PermissionMatrix {
  return Object.fromEntries(WORKSPACE_ROLES.map((role) => [role, { ...team[role], ...overrides[role] }])) as PermissionMatrix;
}

/**
 * The overrides that turn `team` into `effective`: only the cells that differ, so a set keeps
 * following the team matrix everywhere the user did not change it.
 */
export function overridesFrom(team: PermissionMatrix, effective: PermissionMatrix): SetOverrides {
  const overrides: SetOverrides = {};
  for (const role of WORKSPACE_ROLES) {
    const row: Partial<Record<PermissionKey, boolean>> = {};
    for (const key of PERMISSION_KEYS) if (effective[role][key] !== team[role][key]) row[key] = effective[role][key];
    if (Object.keys(row).length) overrides[role] = row;
  }
  return overrides;
}
