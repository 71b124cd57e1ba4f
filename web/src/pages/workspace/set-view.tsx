import { useEffect, useState } from "preact/hooks";
import { type Member, type TodoSet, type WorkspaceRole, workspaceApi } from "../../api/workspace.ts";
import { Button } from "../../components/button.tsx";
import { FormError } from "../../components/form-error.tsx";
import { ExportDialog } from "./dialogs/export-dialog.tsx";
import { ImportDialog } from "./dialogs/import-dialog.tsx";
import { SetSettingsDialog } from "./dialogs/set-settings-dialog.tsx";
import { ShareLinksDialog } from "./share/share-links-dialog.tsx";
import { openList } from "./store/state.ts";
import type { WorkspaceStore } from "./store/workspace-store.ts";
import { TodoTree } from "./todo-tree-view.tsx";
import { counts } from "./model/todo-tree.ts";
import type { WorkspaceSession } from "./use-workspace-session.ts";

type Props = {
  session: WorkspaceSession;
  teamId: string;
  set: TodoSet;
  sets: TodoSet[];
  role: WorkspaceRole;
  defaultTimezone: string;
  manageSettings: boolean;
  store: WorkspaceStore;
};

/** One set: its header (counts, settings, import, export) and its todo tree, kept live by the store. */
export function SetView({ session, teamId, set, sets, role, defaultTimezone, manageSettings, store }: Props) {
  const [members, setMembers] = useState<Member[]>([]);
  const [dialog, setDialog] = useState<"settings" | "import" | "export" | "share" | null>(null);
  const list = openList(store.state.value, set.id);
  const loading = store.state.value.open?.loading === true;
  const error = store.errors.value.todos;

  useEffect(() => {
    store.openSet(set.id);
    workspaceApi.members(teamId).then(setMembers, () => {});
    return () => store.closeSet(set.id);
  }, [teamId, set.id]);

  const perms = list?.permissions;
  const manage = role !== "member" || set.userId === session.me.user.id;
  // While pages still come, the set's counts are the server's (kept per set), not those of the pages so far.
  const { total, completed } = list && !loading ? counts(list.todos) : set;
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
      {list ? (
        <TodoTree
          key={set.id}
          loading={loading}
          session={session}
          teamId={teamId}
          set={set}
          sets={sets}
          list={list}
          members={members}
          store={store}
          timezone={set.timezone || defaultTimezone}
        />
      ) : (
        <p class="muted">Loading…</p>
      )}
      <ImportDialog
        open={dialog === "import"}
        teamId={teamId}
        setId={set.id}
        onClose={() => setDialog(null)}
        onImported={(result) => {
          setDialog(null);
          store.imported(result);
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
          onSaved={(change) => store.setChanged(set.id, change)}
        />
      ) : null}
    </div>
  );
}
