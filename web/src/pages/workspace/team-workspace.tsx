import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type TeamSettings, workspaceApi } from "../../api/workspace.ts";
import { Drawer } from "../../components/drawer.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { MenuIcon } from "../../components/menu-icon.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useMediaQuery } from "../../lib/use-media-query.ts";
import { AssignedView } from "./assigned-view.tsx";
import { DueSoonView } from "./due-soon-view.tsx";
import { type LiveStatus, connectLive } from "./realtime.ts";
import { SetSidebar } from "./set-sidebar.tsx";
import { SetView } from "./set-view.tsx";
import { TeamSettingsPage } from "./settings/team-settings-page.tsx";
import { createWorkspaceStore } from "./store/workspace-store.ts";
import { personalTeamId, type WorkspaceSession, workspacesOf, wsPath, type WorkspaceView } from "./use-workspace-session.ts";
import { applyAccent, applyFavicon } from "./model/workspace-look.ts";

type Props = { session: WorkspaceSession; teamId: string; setId: string | null; view: WorkspaceView };

/** workspace.css's phone layout: one column, the sidebar in a drawer. */
const PHONE = "(max-width: 760px)";
const DRAWER_ID = "ws-drawer";

/** One workspace (a team or the personal space): its store, the live connection, and the open view. */
export function TeamWorkspace({ session, teamId, setId, view }: Props) {
  const { route } = useLocation();
  // The page is keyed by team, so one store serves this workspace for as long as it is open.
  const [store] = useState(() => createWorkspaceStore(teamId));
  const { sets, role } = store.state.value;
  const [teamSettings, setTeamSettings] = useState<TeamSettings | undefined>(undefined);
  const [manageSettings, setManageSettings] = useState(false);
  const [live, setLive] = useState<{ status: LiveStatus; via: string }>({ status: "connecting", via: "" });

  useEffect(() => {
    store.start();
    workspaceApi.teamSettings(teamId).then(setTeamSettings, () => {});
    return () => store.stop();
  }, [teamId]);
  // The team's matrix may grant manage_settings beyond owners and co-owners.
  useEffect(() => {
    workspaceApi.permissions(teamId).then(
      (matrix) => setManageSettings(matrix[role]?.manage_settings === true),
      () => setManageSettings(false),
    );
  }, [teamId, role]);

  // Events are applied by the store; a gap (refetch) or a reconnect may have lost some, so it refetches.
  useEffect(() => {
    const transport = session.settings.realtime_transport ?? "auto";
    let wasLive = false;
    return connectLive(teamId, transport, {
      onEvent: store.receive,
      onRefetch: store.refetchAll,
      onStatus: (status, via) => {
        if (status === "live" && wasLive) store.refetchAll();
        if (status === "live") wasLive = true;
        setLive({ status, via });
      },
    });
  }, [teamId, session.settings.realtime_transport]);

  const phone = useMediaQuery(PHONE);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Choosing a set or a view in the drawer is done with it.
  useEffect(() => setDrawerOpen(false), [teamId, setId, view]);

  useEffect(() => applyAccent(teamSettings), [teamSettings?.accent_color]);
  const workspace = workspacesOf(session.me).find((w) => w.id === teamId);
  const isPersonal = teamId === personalTeamId(session.me);
  useEffect(
    () =>
      applyFavicon(
        session.settings.workspace_favicon === true,
        workspace?.name ?? "",
        isPersonal && session.settings.personal_avatar_icon ? session.me.user.picture || null : null,
      ),
    [session.settings.workspace_favicon, session.settings.personal_avatar_icon, teamId, teamSettings?.accent_color],
  );

  // The first set opens when none is named (the server creates the default set on first list).
  useEffect(() => {
    if (view === "set" && sets && sets.length > 0 && !sets.some((s) => s.id === setId)) route(wsPath(teamId, `/sets/${sets[0]!.id}`), true);
  }, [view, sets, setId]);

  const current = sets?.find((s) => s.id === setId) ?? null;
  const sidebar = (
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
      store={store}
    />
  );
  return (
    <div class="ws">
      {phone ? (
        // Issue 42: on a phone the list comes first; the sets wait in a drawer the header opens.
        <>
          <header class="ws-phone-head">
            <button
              type="button"
              class="btn btn-secondary ws-drawer-button"
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              aria-controls={DRAWER_ID}
              onClick={() => setDrawerOpen(true)}
            >
              <MenuIcon />
              Sets
            </button>
            <span class="ws-phone-title break">{workspace?.name}</span>
          </header>
          <Drawer id={DRAWER_ID} open={drawerOpen} label="Sets and workspace" onClose={() => setDrawerOpen(false)}>
            {sidebar}
          </Drawer>
        </>
      ) : (
        sidebar
      )}
      <section class="ws-main" aria-live="polite">
        <FormError message={store.errors.value.sets} />
        {view === "assigned" ? <AssignedView teamId={teamId} subscribe={store.subscribe} /> : null}
        {view === "due-soon" ? <DueSoonView teamId={teamId} subscribe={store.subscribe} /> : null}
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
            store={store}
          />
        ) : null}
        {view === "set" && sets && sets.length === 0 ? (
          <EmptyState title="No sets yet">
            A set is one list of todos.{" "}
            {role !== "member" || teamSettings?.allow_member_create_sets
              ? "Name one in New set, under Sets, to begin."
              : "An owner of this workspace can make the first one."}
          </EmptyState>
        ) : null}
      </section>
    </div>
  );
}
