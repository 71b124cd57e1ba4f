import type { TeamSettings } from "../../../api/workspace.ts";
import { workspaceApi } from "../../../api/workspace.ts";
import { Card } from "../../../components/card.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { useLoad } from "../../../lib/use-load.ts";
import { PermissionMatrixEditor } from "./permission-matrix.tsx";
import { TeamSettingsForm } from "./team-settings-form.tsx";

type Props = { teamId: string; canManage: boolean; onSaved: (settings: TeamSettings) => void };

/** A workspace's settings (spec 3 section 2.3) and permission matrix: a page body, no layout. */
export function TeamSettingsPage({ teamId, canManage, onSaved }: Props) {
  const loaded = useLoad(() => workspaceApi.teamSettings(teamId), [teamId]);
  return (
    <div class="page wss-settings">
      {loaded.data ? (
        <TeamSettingsForm teamId={teamId} settings={loaded.data} canManage={canManage} onSaved={onSaved} />
      ) : (
        <Card title="Branding and defaults">{loaded.error ? <FormError message={loaded.error} /> : <p class="muted">Loading…</p>}</Card>
      )}
      <PermissionMatrixEditor teamId={teamId} canManage={canManage} />
    </div>
  );
}
