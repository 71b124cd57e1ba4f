import { useState } from "preact/hooks";
import { type AssignedGroup, workspaceApi } from "../../api/workspace.ts";
import { FormError } from "../../components/form-error.tsx";
import { toast } from "../../lib/toasts.ts";
import type { LiveListener } from "./store/workspace-store.ts";
import { useLiveReload } from "./use-live-reload.ts";
import { wsPath } from "./use-workspace-session.ts";

type Props = { teamId: string; subscribe: (listener: LiveListener) => () => void };

/** Spec 2 section 4.2 assigned-to-me: open todos assigned to the caller, grouped by set. */
export function AssignedView({ teamId, subscribe }: Props) {
  const [groups, setGroups] = useState<AssignedGroup[] | null>(null);
  const [expand, setExpand] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    workspaceApi.assignedToMe(teamId).then(
      (answer) => {
        setGroups(answer.groups);
        setExpand(answer.expand);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  useLiveReload(load, subscribe, teamId);

  const complete = async (id: string) => {
    // Completed todos leave this view: at once, rather than after the round trip.
    setGroups((current) => current?.map((g) => ({ ...g, todos: g.todos.filter((t) => t.id !== id) })) ?? current);
    try {
      await workspaceApi.patchTodo(teamId, id, { completed: true });
    } catch (e) {
      toast((e as Error).message, "error");
    }
    await load();
  };
  // Best-effort, like the API itself: the state is kept even if the call fails.
  const toggle = (setId: string, open: boolean) => {
    setExpand({ ...expand, [setId]: open });
    void workspaceApi.setAssignedExpanded(teamId, setId, open).catch(() => {});
  };

  return (
    <div class="ws-set-view">
      <h1>Assigned to me</h1>
      <FormError message={error} />
      {groups?.length === 0 ? <p class="empty-inline">Nothing is assigned to you. Enjoy the quiet.</p> : null}
      {(groups ?? []).map((g) => (
        <details
          key={g.setId}
          class="ws-group"
          open={expand[g.setId] !== false}
          onToggle={(e) => toggle(g.setId, (e.currentTarget as HTMLDetailsElement).open)}
        >
          <summary>
            {g.setName} <span class="ws-count">{g.todos.length}</span>
          </summary>
          <ul class="ws-tree">
            {g.todos.map((t) => (
              <li key={t.id} class="ws-todo">
                <div class="ws-todo-row">
                  <input type="checkbox" class="ws-check" checked={t.completed} aria-label={`Complete ${t.title}`} onChange={() => void complete(t.id)} />
                  <a class="ws-title grow break" href={wsPath(teamId, `/sets/${t.setId}`)}>
                    {t.title}
                  </a>
                </div>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}
