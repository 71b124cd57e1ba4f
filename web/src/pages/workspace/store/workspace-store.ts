import { signal } from "@preact/signals";
import type { RealtimeEvent } from "../../../../../src/contract/realtime.ts";
import { type SetFields, type SetPatch, type SortItem, type Todo, type TodoSet, workspaceApi } from "../../../api/workspace.ts";
import { applyEvent } from "./apply-event.ts";
import { sweepPages } from "./page-sweep.ts";
import { createRefetcher } from "./refetcher.ts";
import { setAdded, setMerged, setRemoved, setsSorted } from "./set-changes.ts";
import { changeOpenTodos, INITIAL_STATE, type WorkspaceState, withList } from "./state.ts";
import { assigneesSet, subtreeRemoved, todoAdded, type TodoPatch, todoPatched, todosSorted } from "./todo-changes.ts";

// How long a refetch waits for more of a burst: the pauses the page used before it had a store.
const LIST_REFETCH_PAUSE_MS = 60;
const SETS_PAUSE_MS = 150;

export type LiveListener = (event: RealtimeEvent | "refetch") => void;
/** What the set settings dialog saved. */
export type SetChange = { patch: SetPatch } | { deleted: true };
export type WorkspaceStore = ReturnType<typeof createWorkspaceStore>;
/** The calls the store makes (a test passes its own). */
export type StoreApi = Pick<
  typeof workspaceApi,
  "sets" | "todos" | "createTodo" | "patchTodo" | "deleteTodo" | "reorderTodos" | "moveTodo" | "setAssignees" | "createSet" | "reorderSets"
>;

/**
 * One team workspace's data on the page: its sets with their counts and the open set's todos. The
 * page's own writes apply the server's answers and incoming events apply their payloads, so a
 * change costs no list request; the lists are fetched again only when the page cannot know the
 * result (see applyEvent), after a gap in the stream, or after a reconnect.
 */
export function createWorkspaceStore(teamId: string, api: StoreApi = workspaceApi) {
  const state = signal<WorkspaceState>(INITIAL_STATE);
  const errors = signal<{ sets: string | null; todos: string | null }>({ sets: null, todos: null });
  const listeners = new Set<LiveListener>();
  const showError = (key: "sets" | "todos", message: string | null) => {
    if (errors.value[key] !== message) errors.value = { ...errors.value, [key]: message };
  };

  const sets = createRefetcher(async (current) => {
    try {
      const answer = await api.sets(teamId);
      if (!current()) return;
      const next = { ...state.value, sets: answer.sets, role: answer.role };
      // The open set's counts follow its todos, which may be newer than this answer.
      state.value = next.open?.list ? withList(next, next.open.list) : next;
      showError("sets", null);
    } catch (e) {
      if (current()) showError("sets", (e as Error).message);
    }
  }, SETS_PAUSE_MS);

  // Changes the page applied to the open set (events, its own writes): a page read meanwhile may predate them.
  let changes = 0;
  const todos = createRefetcher(async (current) => {
    const setId = state.value.open?.setId;
    if (!setId) return;
    const stillOpen = () => current() && state.value.open?.setId === setId;
    try {
      const clean = await sweepPages({
        fetch: (page) => api.todos(teamId, setId, page),
        current: stillOpen,
        changes: () => changes,
        apply(merge, done) {
          const open = state.value.open;
          if (open?.setId === setId) state.value = withList(state.value, merge(open.list), !done);
        },
        pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
        now: () => performance.now(),
      });
      // A set so busy that every read of some pages was overtaken: walked again once this one ends.
      if (!clean) todos.touch();
      if (stillOpen()) showError("todos", null);
    } catch (e) {
      if (stillOpen()) showError("todos", (e as Error).message);
    }
  }, LIST_REFETCH_PAUSE_MS);

  // The page's own writes. A fetch in flight may have been answered before the write: touched.
  const ownTodos = (setId: string, change: (list: Todo[]) => Todo[]) => {
    if (setId === state.value.open?.setId) changes++;
    const next = changeOpenTodos(state.value, setId, change);
    if (next) state.value = next;
  };
  const ownSets = (change: (list: TodoSet[]) => TodoSet[]) => {
    sets.touch();
    const current = state.value.sets;
    if (current) state.value = { ...state.value, sets: change(current) };
  };

  return {
    state,
    errors,
    start: () => void sets.run(),
    stop() {
      sets.stop();
      todos.stop();
      listeners.clear();
    },
    openSet(setId: string) {
      if (state.value.open?.setId === setId) return;
      state.value = { ...state.value, open: { setId, list: null, loading: true } };
      showError("todos", null);
      void todos.run();
    },
    /** Only while `setId` is still the open set: the next view may have opened its own already. */
    closeSet(setId: string) {
      if (state.value.open?.setId !== setId) return;
      state.value = { ...state.value, open: null };
      todos.stop();
    },

    receive(event: RealtimeEvent) {
      sets.touch();
      if (event.setId !== null && event.setId === state.value.open?.setId) changes++;
      const { state: next, refetch } = applyEvent(state.value, event);
      state.value = next;
      for (const kind of refetch) (kind === "sets" ? sets : todos).schedule();
      for (const listener of listeners) listener(event);
    },
    /** A gap in the stream, or a reconnect: anything may have changed meanwhile. */
    refetchAll() {
      sets.schedule();
      if (state.value.open) todos.schedule();
      for (const listener of listeners) listener("refetch");
    },
    subscribe(listener: LiveListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** After a refused write the page may be behind the server. */
    resyncTodos: () => todos.schedule(),
    resyncSets: () => sets.schedule(),

    async createTodo(setId: string, title: string, parentId: string | null, due?: Pick<Todo, "dueDate" | "dueTime">): Promise<Todo> {
      const todo = await api.createTodo(teamId, setId, title, parentId, due);
      ownTodos(setId, (list) => todoAdded(list, todo));
      return todo;
    },
    async patchTodo(setId: string, id: string, patch: TodoPatch) {
      await api.patchTodo(teamId, id, patch);
      ownTodos(setId, (list) => todoPatched(list, id, patch));
    },
    async deleteTodo(setId: string, id: string) {
      await api.deleteTodo(teamId, id);
      ownTodos(setId, (list) => subtreeRemoved(list, id));
    },
    async reorderTodos(setId: string, items: SortItem[]) {
      await api.reorderTodos(teamId, setId, items);
      ownTodos(setId, (list) => todosSorted(list, items));
    },
    /** The target set's counts follow the move's event; counting them here too would count twice. */
    async moveTodo(setId: string, id: string, targetSetId: string, insertAt: "top" | "bottom") {
      await api.moveTodo(teamId, id, targetSetId, insertAt);
      ownTodos(setId, (list) => subtreeRemoved(list, id));
    },
    async setAssignees(setId: string, id: string, userIds: string[]) {
      const { assignees } = await api.setAssignees(teamId, id, userIds);
      ownTodos(setId, (list) => assigneesSet(list, id, assignees));
    },

    async createSet(name: string): Promise<SetFields> {
      const set = await api.createSet(teamId, name);
      ownSets((list) => setAdded(list, set));
      return set;
    },
    async reorderSets(items: SortItem[]) {
      await api.reorderSets(teamId, items);
      ownSets((list) => setsSorted(list, items));
    },
    setChanged(setId: string, change: SetChange) {
      ownSets((list) => ("deleted" in change ? setRemoved(list, setId) : setMerged(list, setId, change.patch)));
    },
    /** A new set is added (its counts come with its todos when it opens); an open set reloads. */
    imported(result: { setId: string; set?: SetFields }) {
      const { set } = result;
      if (set) ownSets((list) => setAdded(list, set));
      else if (state.value.open?.setId === result.setId) todos.schedule();
      else sets.schedule();
    },
  };
}
