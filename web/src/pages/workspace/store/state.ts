import type { TodoList, TodoSet, WorkspaceRole } from "../../../api/workspace.ts";
import { counts } from "../model/todo-tree.ts";

/** What one open team workspace shows: its sets with their counts, and the todos of the open set. */
export type WorkspaceState = {
  /** Null until the first list arrives. */
  sets: TodoSet[] | null;
  role: WorkspaceRole;
  /**
   * The set on screen; its `list` is null until its first page arrives, and `loading` while more
   * pages come (issue 43: the list then holds the pages so far).
   */
  open: { setId: string; list: TodoList | null; loading?: boolean } | null;
};

/** What must be fetched again because a change could not be applied from what the page holds. */
export type Refetch = "sets" | "todos";
export type Applied = { state: WorkspaceState; refetch: Refetch[] };

export const INITIAL_STATE: WorkspaceState = { sets: null, role: "member", open: null };

/** The list of `setId` when it is the open set and has loaded. */
export const openList = (state: WorkspaceState, setId: string | null): TodoList | null => (state.open && state.open.setId === setId ? state.open.list : null);

/**
 * The open set with `list`: once all of it has come, the sidebar's counts for that set are its
 * todos' counts, so every change to the open set keeps them right without asking the server.
 * While pages still come, the counts stay the server's.
 */
export function withList(state: WorkspaceState, list: TodoList, loading = state.open?.loading === true): WorkspaceState {
  if (!state.open) return state;
  const { setId } = state.open;
  if (loading) return { ...state, open: { setId, list, loading: true } };
  const { total, completed } = counts(list.todos);
  const sets =
    state.sets?.map((s) => (s.id === setId && (s.total !== total || s.completed !== completed) ? { ...s, total, completed, pending: total - completed } : s)) ??
    null;
  return { ...state, sets, open: { setId, list } };
}

/** Applies `change` to the open set's todos when `setId` is open and loaded; null otherwise. */
export function changeOpenTodos(state: WorkspaceState, setId: string, change: (todos: TodoList["todos"]) => TodoList["todos"]): WorkspaceState | null {
  const list = openList(state, setId);
  if (!list) return null;
  const todos = change(list.todos);
  return todos === list.todos ? state : withList(state, { ...list, todos });
}
