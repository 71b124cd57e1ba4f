import { PERMISSION_KEYS, type PermissionKey, type PermissionMatrix, WORKSPACE_ROLES, type WorkspaceRole } from "../../../api/workspace.ts";
import { PERMISSION_LABELS, ROLE_LABELS } from "./permission-labels.ts";

type Props = {
  caption: string;
  matrix: PermissionMatrix;
  disabled: boolean;
  onToggle: (role: WorkspaceRole, key: PermissionKey, value: boolean) => void;
  /** Cells to mark as differing from a baseline (a set's overrides of the team matrix). */
  marked?: (role: WorkspaceRole, key: PermissionKey) => boolean;
};

/** Permission keys down, roles across, one labelled checkbox per cell. */
export function PermissionTable({ caption, matrix, disabled, onToggle, marked }: Props) {
  return (
    <div class="table-wrap">
      <table class="table wss-matrix">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Permission</th>
            {WORKSPACE_ROLES.map((role) => (
              <th key={role} scope="col" class="wss-matrix-role">
                {ROLE_LABELS[role]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {PERMISSION_KEYS.map((key) => (
            <tr key={key}>
              <th scope="row" class="wss-matrix-key">
                {PERMISSION_LABELS[key]}
              </th>
              {WORKSPACE_ROLES.map((role) => (
                <td key={role} class={`wss-matrix-cell${marked?.(role, key) ? " wss-matrix-marked" : ""}`}>
                  <input
                    type="checkbox"
                    checked={matrix[role][key]}
                    disabled={disabled}
                    aria-label={`${PERMISSION_LABELS[key]} for ${ROLE_LABELS[role]}`}
                    onChange={(e) => onToggle(role, key, e.currentTarget.checked)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
