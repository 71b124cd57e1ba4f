import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Member, type TodoList, type TodoSet, type WorkspaceRole, workspaceApi } from "../../api/workspace.ts";
import { Button } from "../../components/button.tsx";
import { FormError } from "../../components/form-error.tsx";
import { ExportDialog } from "./dialogs/export-dialog.tsx";
import { ImportDialog } from "./dialogs/import-dialog.tsx";
import { SetSettingsDialog } from "./dialogs/set-settings-dialog.tsx";
import { ShareLinksDialog } from "./share/share-links-dialog.tsx";
import type { LiveListener } from "./team-workspace.tsx";
import { TodoTree } from "./todo-tree-view.tsx";
import { counts } from "./todo-tree.ts";
import type { WorkspaceSession } from "./use-workspace-session.ts";
import { wsPath } from "./use-workspace-session.ts";

type Props = {
  session: WorkspaceSession;
  teamId: string;
  set: TodoSet;
  sets: TodoSet[];
  role: WorkspaceRole;
  defaultTimezone: string;
  manageSettings: boolean;
  subscribe: (listener: LiveListener) => () => void;
  onSetsChanged: () => Promise<void>;
};

/** One set: its header (counts, settings, import, export) and its todo tree, kept live. */
export function SetView({ session, teamId, set, sets, role, defaultTimezone, manageSettings, subscribe, onSetsChanged }: Props) {
  const { route } = useLocation();
  const [list, setList] = useState<TodoList | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<"settings" | "import" | "export" | "share" | null>(null);

  const load = async () => {
    try {
      setList(await workspaceApi.todos(teamId, set.id));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    void load();
    workspaceApi.members(teamId).then(setMembers, () => {});
  }, [teamId, set.id]);

  // Another window's change to this set (or a gap in the stream) reloads the list.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribe((event) => {
      if (event !== "refetch" && event.setId !== set.id) return;
      clearTimeout(timer);
      timer = setTimeout(() => void load(), 60);
    });
    return () => (clearTimeout(timer), off());
  }, [set.id]);

  const perms = list?.permissions;
  const manage = role !== "member" || set.userId === session.me.user.id;
  const { total, completed } = counts(list?.todos ?? []);
  return (
    <div class="ws-set-view">
      <header class="ws-set-head">
        <div class="grow">
          <h1 class="break">{set.name}</h1>
          {session.settings.detailed_status ? (
            <p class="muted small" data-testid="set-status">
              {completed} done, {total - completed} remaining
            </p>
          ) : null}
        </div>
        <div class="ws-set-actions">
          {perms?.create_todos ? (
            <Button variant="secondary" onClick={() => setDialog("import")}>
              Import
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => setDialog("export")}>
            Export
          </Button>
          {perms?.manage_set_links ? (
            <Button variant="secondary" onClick={() => setDialog("share")}>
              Share
            </Button>
          ) : null}
          {manage ? (
            <Button variant="secondary" onClick={() => setDialog("settings")}>
              Set settings
            </Button>
          ) : null}
        </div>
      </header>
      <FormError message={error} />
      {list ? <TodoTree session={session} teamId={teamId} set={set} sets={sets} list={list} members={members} reload={load} /> : <p class="muted">Loading…</p>}
      <ImportDialog
        open={dialog === "import"}
        teamId={teamId}
        setId={set.id}
        onClose={() => setDialog(null)}
        onImported={() => {
          setDialog(null);
          void load();
          void onSetsChanged();
        }}
      />
      <ExportDialog open={dialog === "export"} teamId={teamId} setId={set.id} onClose={() => setDialog(null)} />
      {perms?.manage_set_links ? <ShareLinksDialog open={dialog === "share"} teamId={teamId} set={set} onClose={() => setDialog(null)} /> : null}
      {dialog === "settings" ? (
        <SetSettingsDialog
          open
          teamId={teamId}
          set={set}
          defaultTimezone={defaultTimezone}
          canManage={manage}
          canManagePermissions={manageSettings}
          onClose={() => setDialog(null)}
          onSaved={() => {
            void onSetsChanged().then(() => {
              if (!sets.some((s) => s.id === set.id)) route(wsPath(teamId));
            });
          }}
        />
      ) : null}
    </div>
  );
}
