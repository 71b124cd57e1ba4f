import type { EventOf } from "../../../../../src/contract/api/realtime-events.ts";
import type { RealtimeEvent, RealtimeEventType } from "../../../../../src/contract/realtime.ts";
import type { Todo } from "../../../api/workspace.ts";
import { rootCounted, setMerged, setRemoved, setsSorted } from "./set-changes.ts";
import { type Applied, changeOpenTodos, type Refetch, type WorkspaceState } from "./state.ts";
import { assigneesSet, commentsCounted, subtreeRemoved, todoAdded, todoReplaced, todosSorted } from "./todo-changes.ts";

type AnyEvent = { [T in RealtimeEventType]: EventOf<T> }[RealtimeEventType];

const applied = (state: WorkspaceState): Applied => ({ state, refetch: [] });
const refetch = (state: WorkspaceState, ...kinds: Refetch[]): Applied => ({ state, refetch: kinds });
const isOpen = (state: WorkspaceState, setId: string | null) => setId !== null && state.open?.setId === setId;

/**
 * A todo change: applied to the open set's list, or null when `setId` is not the open set. While
 * the open set is still loading, its answer may predate the change, so it is fetched again.
 */
function inOpenSet(state: WorkspaceState, setId: string | null, change: (todos: Todo[]) => Todo[]): Applied | null {
  if (setId === null || !isOpen(state, setId)) return null;
  const next = changeOpenTodos(state, setId, change);
  return next ? applied(next) : refetch(state, "todos");
}

/** A top-level todo arriving in (or leaving) a set that is not open: only its counts change. */
function counted(state: WorkspaceState, setId: string | null, todo: Todo, sign: 1 | -1): Applied {
  const { sets } = state;
  if (setId === null || !sets?.some((s) => s.id === setId)) return refetch(state, "sets");
  return applied({ ...state, sets: rootCounted(sets, setId, todo, sign) });
}

/** A set's new fields; a set the page does not know yet needs the list for its counts. */
function setFields(state: WorkspaceState, fields: EventOf<"set:updated">["data"]): Applied {
  if (!state.sets?.some((s) => s.id === fields.id)) return refetch(state, "sets");
  return applied({ ...state, sets: setMerged(state.sets, fields.id, fields) });
}

/**
 * Spec 2 section 6: one copy goes to the source set and one to the target. The payload is the
 * moved root without its subtree, and whether it was top-level in its source is not said.
 */
function moved(state: WorkspaceState, e: EventOf<"todo:moved">): Applied {
  const { todo, fromSetId, toSetId } = e.data;
  if (e.setId === fromSetId && fromSetId !== toSetId) {
    if (todo === null) return refetch(state, "sets", ...(isOpen(state, fromSetId) ? (["todos"] as const) : []));
    return inOpenSet(state, fromSetId, (todos) => subtreeRemoved(todos, todo.id)) ?? refetch(state, "sets");
  }
  if (isOpen(state, toSetId)) return refetch(state, "todos");
  if (todo === null || fromSetId === toSetId) return refetch(state, "sets");
  return counted(state, toSetId, todo, 1);
}

/**
 * The store's reducer for the team's realtime events (ARCHITECTURE section 4, spec 2 section 6):
 * the next state, and what must be fetched because the event cannot be applied from the payload.
 * Applying an echo of the page's own write a second time changes nothing.
 */
export function applyEvent(state: WorkspaceState, event: RealtimeEvent): Applied {
  const e = event as AnyEvent;
  switch (e.type) {
    case "todo:created":
      return inOpenSet(state, e.setId, (todos) => todoAdded(todos, e.data)) ?? counted(state, e.setId, e.data, 1);
    case "todo:updated": {
      const todo = e.data;
      // Null: deleted before it was read back; its todo:deleted follows.
      if (todo === null) return applied(state);
      // Elsewhere a top-level todo may have changed its completion, which counts need the old value for.
      return inOpenSet(state, e.setId, (todos) => todoReplaced(todos, todo)) ?? (todo.parentId === null ? refetch(state, "sets") : applied(state));
    }
    case "todo:deleted":
      return inOpenSet(state, e.setId, (todos) => subtreeRemoved(todos, e.data.id)) ?? refetch(state, "sets");
    case "todo:reordered":
      return inOpenSet(state, e.data.setId, (todos) => todosSorted(todos, e.data.items)) ?? applied(state);
    case "todo:moved":
      return moved(state, e);
    case "todo:assigned":
      return inOpenSet(state, e.setId, (todos) => assigneesSet(todos, e.data.todoId, e.data.assignees)) ?? applied(state);
    case "comment:created":
    case "comment:deleted": {
      const delta = e.type === "comment:created" ? 1 : -1;
      return inOpenSet(state, e.setId, (todos) => commentsCounted(todos, e.data.todoId, delta)) ?? applied(state);
    }
    case "set:created":
    case "set:updated":
      return setFields(state, e.data);
    case "set:deleted":
      return state.sets ? applied({ ...state, sets: setRemoved(state.sets, e.data.id) }) : refetch(state, "sets");
    case "set:reordered":
      return state.sets ? applied({ ...state, sets: setsSorted(state.sets, e.data.items) }) : refetch(state, "sets");
    case "set:imported":
      // One event for a whole batch: the open set reloads (its counts follow its todos).
      return isOpen(state, e.data.setId) ? refetch(state, "todos") : refetch(state, "sets");
  }
  return applied(state);
}
