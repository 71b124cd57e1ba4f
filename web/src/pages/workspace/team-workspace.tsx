import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type TeamSettings, type TodoSet, type WorkspaceRole, workspaceApi } from "../../api/workspace.ts";
import { FormError } from "../../components/form-error.tsx";
import { AssignedView } from "./assigned-view.tsx";
import { type LiveEvent, type LiveStatus, connectLive } from "./realtime.ts";
import { SetSidebar } from "./set-sidebar.tsx";
import { SetView } from "./set-view.tsx";
import { TeamSettingsPage } from "./settings/team-settings-page.tsx";
import { personalTeamId, type WorkspaceSession, workspacesOf, wsPath } from "./use-workspace-session.ts";
import type { WorkspaceView } from "./workspace-page.tsx";
import { applyAccent, applyFavicon } from "./workspace-look.ts";

type Props = { session: WorkspaceSession; teamId: string; setId: string | null; view: WorkspaceView };
export type LiveListener = (event: LiveEvent | "refetch") => void;

/** One workspace (a team or the personal space): its sets, the live connection, and the open view. */
export function TeamWorkspace({ session, teamId, setId, view }: Props) {
  const { route } = useLocation();
  const [sets, setSets] = useState<TodoSet[] | null>(null);
  const [role, setRole] = useState<WorkspaceRole>("member");
  const [teamSettings, setTeamSettings] = useState<TeamSettings | undefined>(undefined);
  const [manageSettings, setManageSettings] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState<{ status: LiveStatus; via: string }>({ status: "connecting", via: "" });
  const listeners = useRef(new Set<LiveListener>());

  const loadSets = useCallback(async () => {
    try {
      const answer = await workspaceApi.sets(teamId);
      setSets(answer.sets);
      setRole(answer.role);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [teamId]);

  useEffect(() => {
    void loadSets();
    workspaceApi.teamSettings(teamId).then(setTeamSettings, () => {});
  }, [teamId]);
  // The team's matrix may grant manage_settings beyond owners and co-owners.
  useEffect(() => {
    workspaceApi.permissions(teamId).then((matrix) => setManageSettings(matrix[role]?.manage_settings === true), () => setManageSettings(false));
  }, [teamId, role]);

  // Counts in the sidebar follow every change; a burst of events costs one reload.
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const transport = session.settings.realtime_transport ?? "auto";
    return connectLive(teamId, transport, {
      onEvent: (event) => {
        clearTimeout(reloadSoon.current);
        reloadSoon.current = setTimeout(() => void loadSets(), 150);
        for (const listener of listeners.current) listener(event);
      },
      onRefetch: () => {
        void loadSets();
        for (const listener of listeners.current) listener("refetch");
      },
      onStatus: (status, via) => setLive({ status, via }),
    });
  }, [teamId, session.settings.realtime_transport]);

  useEffect(() => applyAccent(teamSettings), [teamSettings?.accent_color]);
  const workspace = workspacesOf(session.me).find((w) => w.id === teamId);
  const isPersonal = teamId === personalTeamId(session.me);
  useEffect(
    () => applyFavicon(session.settings.workspace_favicon === true, workspace?.name ?? "", isPersonal && session.settings.personal_avatar_icon ? session.me.user.picture || null : null),
    [session.settings.workspace_favicon, session.settings.personal_avatar_icon, teamId, teamSettings?.accent_color],
  );

  // The first set opens when none is named (the server creates the default set on first list).
  useEffect(() => {
    if (view === "set" && sets && sets.length > 0 && !sets.some((s) => s.id === setId)) route(wsPath(teamId, `/sets/${sets[0]!.id}`), true);
  }, [view, sets, setId]);

  const subscribe = useCallback((listener: LiveListener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);

  const current = sets?.find((s) => s.id === setId) ?? null;
  return (
    <div class="ws">
      <SetSidebar
        session={session}
        teamId={teamId}
        siteName={teamSettings?.site_name}
        sets={sets ?? []}
        role={role}
        currentSetId={view === "set" ? setId : null}
        view={view}
        live={live}
        allowMemberCreateSets={teamSettings?.allow_member_create_sets === true}
        onChanged={loadSets}
      />
      <section class="ws-main" aria-live="polite">
        <FormError message={error} />
        {view === "assigned" ? <AssignedView teamId={teamId} subscribe={subscribe} /> : null}
        {view === "team-settings" ? (
          <div class="ws-narrow">
            <h1>Workspace settings</h1>
            <TeamSettingsPage teamId={teamId} canManage={manageSettings || role === "owner" || role === "co-owner"} onSaved={setTeamSettings} />
          </div>
        ) : null}
        {view === "set" && current && sets ? (
          <SetView
            key={current.id}
            session={session}
            teamId={teamId}
            set={current}
            sets={sets}
            role={role}
            defaultTimezone={teamSettings?.default_timezone ?? "UTC"}
            manageSettings={manageSettings || role === "owner" || role === "co-owner"}
            subscribe={subscribe}
            onSetsChanged={loadSets}
          />
        ) : null}
        {view === "set" && sets && sets.length === 0 ? <p class="muted">No sets yet.</p> : null}
      </section>
    </div>
  );
}
