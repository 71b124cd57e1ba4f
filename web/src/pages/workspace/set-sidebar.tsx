import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { TodoSet, WorkspaceRole } from "../../api/workspace.ts";
import { Button } from "../../components/button.tsx";
import { signOut } from "../../lib/session.ts";
import { toast } from "../../lib/toasts.ts";
import { ImportDialog } from "./dialogs/import-dialog.tsx";
import { dragProps } from "./drag.ts";
import type { LiveStatus } from "./realtime.ts";
import type { WorkspaceStore } from "./store/workspace-store.ts";
import { orderItems } from "./model/todo-tree.ts";
import { shortcutsOpen } from "./shortcuts/shortcuts.ts";
import { type WorkspaceSession, workspacesOf, wsPath, type WorkspaceView } from "./use-workspace-session.ts";

type Props = {
  session: WorkspaceSession;
  teamId: string;
  siteName: string | undefined;
  sets: TodoSet[];
  role: WorkspaceRole;
  currentSetId: string | null;
  view: WorkspaceView;
  live: { status: LiveStatus; via: string };
  allowMemberCreateSets: boolean;
  store: WorkspaceStore;
};

const LIVE_TEXT: Record<LiveStatus, string> = { connecting: "Connecting…", live: "Live", offline: "Offline, reconnecting" };

/** The workspace switcher, the sets with their counts (drag to reorder), and links to the other views. */
export function SetSidebar({ session, teamId, siteName, sets, role, currentSetId, view, live, allowMemberCreateSets, store }: Props) {
  const { route } = useLocation();
  const [name, setName] = useState("");
  const [importing, setImporting] = useState(false);
  const manage = role !== "member";
  const canCreate = manage || allowMemberCreateSets;
  const ids = sets.map((s) => s.id);

  const create = async () => {
    if (!name.trim()) return toast("Name the new set.", "error");
    try {
      const set = await store.createSet(name.trim());
      setName("");
      route(wsPath(teamId, `/sets/${set.id}`));
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  const reorder = async (order: string[]) => {
    try {
      await store.reorderSets(orderItems(order));
    } catch (e) {
      toast((e as Error).message, "error");
      store.resyncSets();
    }
  };
  // The same Sign out as the user menu's: the workspace's session, then the identity provider's.
  const leave = async () => {
    if (!(await signOut().catch(() => false))) location.assign("/");
  };

  return (
    <nav class="ws-sidebar" aria-label="Workspace">
      <div class="ws-brand">{siteName || "Workspace"}</div>
      <label class="visually-hidden" for="ws-switch">
        Workspace
      </label>
      <select id="ws-switch" class="input" value={teamId} onChange={(e) => route(wsPath((e.target as HTMLSelectElement).value))}>
        {workspacesOf(session.me).map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <a class={`ws-link${view === "assigned" ? " active" : ""}`} href={wsPath(teamId, "/assigned")} aria-current={view === "assigned" ? "page" : undefined}>
        Assigned to me
      </a>
      <a class={`ws-link${view === "due-soon" ? " active" : ""}`} href={wsPath(teamId, "/due-soon")} aria-current={view === "due-soon" ? "page" : undefined}>
        Due soon
      </a>
      <h2 class="ws-heading">Sets</h2>
      <ul class="ws-sets" aria-label="Sets">
        {sets.map((s) => (
          <li key={s.id} {...dragProps(ids, s.id, manage, (order) => void reorder(order), "set")} class="ws-set" data-set-id={s.id}>
            <a href={wsPath(teamId, `/sets/${s.id}`)} class={s.id === currentSetId ? "active" : ""} aria-current={s.id === currentSetId ? "page" : undefined}>
              <span class="grow break">{s.name}</span>
              <span class="ws-count">
                <span aria-hidden="true">
                  {s.completed}/{s.total}
                </span>
                <span class="visually-hidden">
                  {s.completed} of {s.total} done
                </span>
              </span>
            </a>
          </li>
        ))}
      </ul>
      {manage ? <p class="field-hint small ws-drag-hint">Drag sets (or Alt+↑/↓) to reorder.</p> : null}
      {canCreate ? (
        <form
          class="ws-new-set"
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <label class="visually-hidden" for="ws-new-set">
            New set name
          </label>
          <input
            id="ws-new-set"
            class="input input-compact"
            placeholder="New set"
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
            maxLength={200}
          />
          <Button type="submit" variant="secondary">
            Add set
          </Button>
        </form>
      ) : null}
      {manage ? (
        <Button variant="ghost" onClick={() => setImporting(true)}>
          Import a set…
        </Button>
      ) : null}
      <div class="ws-foot">
        <a class={`ws-link${view === "team-settings" ? " active" : ""}`} href={wsPath(teamId, "/settings")}>
          Workspace settings
        </a>
        <a class="ws-link" href="/w/settings">
          Your preferences
        </a>
        <button type="button" class="ws-link ws-link-button" aria-label="Keyboard shortcuts" aria-keyshortcuts="?" onClick={() => (shortcutsOpen.value = true)}>
          Keyboard shortcuts <kbd>?</kbd>
        </button>
        <p class={`ws-live ws-live-${live.status}`} role="status">
          {LIVE_TEXT[live.status]}
          {live.status === "live" && live.via ? ` (${live.via === "ws" ? "WebSocket" : "SSE"})` : ""}
        </p>
        <p class="small muted">
          {session.me.user.name || session.me.user.username}{" "}
          <button type="button" class="link-button" onClick={() => void leave()}>
            Sign out
          </button>
        </p>
      </div>
      <ImportDialog
        open={importing}
        teamId={teamId}
        setId={null}
        onClose={() => setImporting(false)}
        onImported={(result) => {
          setImporting(false);
          store.imported(result);
          route(wsPath(teamId, `/sets/${result.setId}`));
        }}
      />
    </nav>
  );
}
