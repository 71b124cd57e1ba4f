import { useEffect, useState } from "preact/hooks";
import { type PermissionMatrix, workspaceApi } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { toast } from "../../../lib/toasts.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { applyOverrides, overridesFrom, withCell } from "../settings/matrix.ts";
import { PermissionTable } from "../settings/permission-table.tsx";

type Props = { teamId: string; setId: string; setName: string };

/**
 * A set's permission overrides (ARCHITECTURE section 4). The table shows what each role may do
 * in this set; only cells that differ from the team matrix are stored as overrides.
 */
export function SetPermissionsSection({ teamId, setId, setName }: Props) {
  const loaded = useLoad(async () => {
    const [team, overrides] = await Promise.all([workspaceApi.permissions(teamId), workspaceApi.setPermissions(teamId, setId)]);
    return { team, effective: applyOverrides(team, overrides) };
  }, [teamId, setId]);
  const [draft, setDraft] = useState<PermissionMatrix | null>(null);
  const [busy, setBusy] = useState<"save" | "reset" | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(loaded.data?.effective ?? null), [loaded.data]);

  if (!loaded.data || !draft) return loaded.error ? <FormError message={loaded.error} /> : <p class="muted">Loading…</p>;
  const { team } = loaded.data;

  const put = async (which: "save" | "reset") => {
    setBusy(which);
    setError(null);
    try {
      const stored = await workspaceApi.putSetPermissions(teamId, setId, which === "reset" ? {} : overridesFrom(team, draft));
      setDraft(applyOverrides(team, stored));
      toast(which === "reset" ? `${setName} follows the workspace permissions again.` : `Permissions of ${setName} saved.`, "success");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div class="wss-set-permissions">
      <p class="field-hint">Marked cells differ from the workspace's permissions.</p>
      <PermissionTable
        caption={`Permissions in ${setName}`}
        matrix={draft}
        disabled={busy !== null}
        onToggle={(role, key, value) => setDraft(withCell(draft, role, key, value))}
        marked={(role, key) => draft[role][key] !== team[role][key]}
      />
      <FormError message={error} />
      <div class="form-actions">
        <Button variant="secondary" onClick={() => void put("reset")} busy={busy === "reset"} disabled={busy === "save"}>
          Use workspace permissions
        </Button>
        <Button variant="secondary" onClick={() => void put("save")} busy={busy === "save"} disabled={busy === "reset"}>
          Save set permissions
        </Button>
      </div>
    </div>
  );
}
