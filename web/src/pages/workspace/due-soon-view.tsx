import { useState } from "preact/hooks";
import { type DueSoonTodo, workspaceApi } from "../../api/workspace.ts";
import { FormError } from "../../components/form-error.tsx";
import { toast } from "../../lib/toasts.ts";
import { DueLabel, useLocalNow } from "./due-label.tsx";
import { isOverdue, localNow } from "./model/due.ts";
import type { LiveListener } from "./store/workspace-store.ts";
import { useLiveReload } from "./use-live-reload.ts";
import { wsPath } from "./use-workspace-session.ts";

type Props = { teamId: string; subscribe: (listener: LiveListener) => () => void };

/** Open todos due in the next seven days or overdue, across the sets the person may view, soonest first. */
export function DueSoonView({ teamId, subscribe }: Props) {
  const [todos, setTodos] = useState<DueSoonTodo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Re-reads the clock as it passes; each row is read in its own set's time zone.
  useLocalNow("UTC");
  const load = () =>
    workspaceApi.dueSoon(teamId).then(
      (list) => {
        setTodos(list);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  useLiveReload(load, subscribe, teamId);

  const complete = async (id: string) => {
    // Completed todos leave this view: at once, rather than after the round trip.
    setTodos((current) => current?.filter((t) => t.id !== id) ?? current);
    try {
      await workspaceApi.patchTodo(teamId, id, { completed: true });
    } catch (e) {
      toast((e as Error).message, "error");
    }
    await load();
  };

  const rows = (todos ?? []).map((todo) => ({ todo, now: localNow(todo.timezone) }));
  const overdue = rows.filter((r) => isOverdue(r.todo, r.now));
  const coming = rows.filter((r) => !isOverdue(r.todo, r.now));
  const section = (title: string, list: typeof rows) =>
    list.length === 0 ? null : (
      <section class="ws-group" aria-label={title}>
        <h2 class="ws-due-heading">
          {title} <span class="ws-count">{list.length}</span>
        </h2>
        <ul class="ws-tree">
          {list.map(({ todo, now }) => (
            <li key={todo.id} class="ws-todo" data-todo-id={todo.id}>
              <div class="ws-todo-row">
                <input type="checkbox" class="ws-check" checked={false} aria-label={`Complete ${todo.title}`} onChange={() => void complete(todo.id)} />
                <a class="ws-title grow break" href={wsPath(teamId, `/sets/${todo.setId}`)}>
                  {todo.title}
                </a>
                <span class="muted small break">{todo.setName}</span>
                <DueLabel due={todo} now={now} />
              </div>
            </li>
          ))}
        </ul>
      </section>
    );

  return (
    <div class="ws-set-view">
      <h1>Due soon</h1>
      <FormError message={error} />
      {todos?.length === 0 ? <p class="empty-inline">Nothing is due in the next seven days, and nothing is overdue.</p> : null}
      {section("Overdue", overdue)}
      {section("Next seven days", coming)}
    </div>
  );
}
