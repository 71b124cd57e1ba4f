import { useEffect, useState } from "preact/hooks";
import { type PermissionMatrix, workspaceApi } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { Card } from "../../../components/card.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { toast } from "../../../lib/toasts.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { sameMatrix, withCell } from "./matrix.ts";
import { PermissionTable } from "./permission-table.tsx";

type Props = { teamId: string; canManage: boolean };

/** ARCHITECTURE section 4: the team's role -> permission matrix; Save sends it whole. */
export function PermissionMatrixEditor({ teamId, canManage }: Props) {
  const loaded = useLoad(() => workspaceApi.permissions(teamId), [teamId]);
  const [saved, setSaved] = useState<PermissionMatrix | null>(null);
  const [draft, setDraft] = useState<PermissionMatrix | null>(null);
  const [busy, setBusy] = useState<"save" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  useEffect(() => {
    if (!loaded.data) return;
    setSaved(loaded.data);
    setDraft(loaded.data);
  }, [loaded.data]);

  const adopt = (matrix: PermissionMatrix) => {
    setSaved(matrix);
    setDraft(matrix);
    setError(null);
  };
  const save = async () => {
    if (!draft) return;
    setBusy("save");
    setError(null);
    try {
      adopt(await workspaceApi.putPermissions(teamId, draft));
      toast("Permissions saved.", "success");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const title = "Permissions";
  if (!draft || !saved)
    return (
      <Card id="permissions" title={title}>
        {loaded.error ? <FormError message={loaded.error} /> : <p class="muted">Loading…</p>}
      </Card>
    );
  const dirty = !sameMatrix(saved, draft);
  return (
    <Card
      id="permissions"
      title={title}
      footer={
        canManage ? (
          <div class="wss-save-row">
            <FormError message={error} />
            <Button variant="secondary" onClick={() => setResetting(true)} disabled={busy !== null}>
              Reset to defaults
            </Button>
            <Button onClick={() => void save()} busy={busy === "save"} disabled={!dirty}>
              Save permissions
            </Button>
          </div>
        ) : null
      }
    >
      <p class="muted">What each role may do in this workspace. Owners and co-owners can always change settings; individual sets can override this table.</p>
      {canManage ? null : <p class="notice">Only people who can manage settings can change permissions.</p>}
      <PermissionTable
        caption="Permissions by role"
        matrix={draft}
        disabled={!canManage || busy !== null}
        onToggle={(role, key, value) => setDraft(withCell(draft, role, key, value))}
      />
      <ConfirmDialog
        open={resetting}
        title="Reset permissions to the defaults?"
        confirmLabel="Reset to defaults"
        onClose={() => setResetting(false)}
        onConfirm={async () => {
          adopt(await workspaceApi.putPermissions(teamId, {}));
          toast("Permissions reset to the defaults.", "success");
        }}
      >
        <p>Every role gets the built-in permissions back. Per-set overrides stay as they are.</p>
      </ConfirmDialog>
    </Card>
  );
}
