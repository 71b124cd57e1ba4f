import { useEffect } from "preact/hooks";
import { useLocation, useRoute } from "preact-iso";
import { FormError } from "../../components/form-error.tsx";
import { UserSettingsPage } from "./settings/user-settings-page.tsx";
import { ShortcutsDialog } from "./shortcuts/shortcuts-dialog.tsx";
import { TeamWorkspace } from "./team-workspace.tsx";
import { personalTeamId, useWorkspaceSession, type WorkspaceView, workspacesOf, wsPath } from "./use-workspace-session.ts";

/**
 * Routes `/w`, `/w/settings`, `/w/:teamId`, `/w/:teamId/sets/:setId`, `/w/:teamId/assigned`, `/w/:teamId/due-soon` and
 * `/w/:teamId/settings`: the workspace signs in through the IdP first (ARCHITECTURE section 4).
 */
export function WorkspacePage() {
  return (
    <>
      <WorkspaceRoutes />
      <ShortcutsDialog />
    </>
  );
}

function WorkspaceRoutes() {
  const { params, path } = useRoute();
  const { route } = useLocation();
  const { session, error } = useWorkspaceSession();
  const teamId = params.teamId ? decodeURIComponent(params.teamId) : null;
  const userSettings = path === "/w/settings";
  const known = session && teamId ? workspacesOf(session.me).some((w) => w.id === teamId) : true;

  useEffect(() => {
    if (session && !teamId && !userSettings) route(wsPath(session.me.teams[0]?.id ?? personalTeamId(session.me)), true);
  }, [session, teamId, userSettings]);

  if (error) return <FormError message={error} />;
  if (!session) return <p class="muted">Loading the workspace…</p>;
  if (userSettings)
    return (
      <div class="ws-narrow">
        <p class="crumbs">
          <a href="/w">← Back to the workspace</a>
        </p>
        <h1>Your workspace preferences</h1>
        <UserSettingsPage onSaved={session.setSettings} />
      </div>
    );
  if (!teamId) return null;
  if (!known) return <FormError message="You are not a member of this workspace. Sign out and in again if you were just added." />;
  const view: WorkspaceView = path.endsWith("/assigned")
    ? "assigned"
    : path.endsWith("/due-soon")
      ? "due-soon"
      : path.endsWith("/settings")
        ? "team-settings"
        : "set";
  return <TeamWorkspace key={teamId} session={session} teamId={teamId} setId={params.setId ?? null} view={view} />;
}
