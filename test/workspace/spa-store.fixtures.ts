import type { RealtimeEventData } from "../../src/contract/api/realtime-events.ts";
import type { RealtimeEvent, RealtimeEventType } from "../../src/contract/realtime.ts";
import type { Todo, TodoList, TodoSet } from "../../web/src/api/workspace.ts";
import type { WorkspaceState } from "../../web/src/pages/workspace/store/state.ts";

// Small records for the SPA store's tests: two sets, the first open with a todo tree.

export const TEAM = "team-1";
export const OPEN = "set-open";
export const OTHER = "set-other";
const AT = "2026-01-01T00:00:00.000Z";

export const todo = (id: string, fields: Partial<Todo> = {}): Todo => ({
  id,
  userId: "u1",
  parentId: null,
  title: id,
  completed: false,
  sortOrder: 0,
  dueDate: null,
  dueTime: null,
  commentCount: 0,
  assignees: [],
  createdAt: AT,
  updatedAt: AT,
  ...fields,
});

export const set = (id: string, fields: Partial<TodoSet> = {}): TodoSet => ({
  id,
  userId: "u1",
  name: id,
  sortOrder: 0,
  autoRenew: false,
  renewTime: "00:00",
  timezone: "",
  lastRenewedAt: null,
  splitCompleted: false,
  createdAt: AT,
  total: 0,
  completed: 0,
  pending: 0,
  ...fields,
});

const ALL = { create_todos: true } as TodoList["permissions"];

/** Milk (with the sub-todo Oat milk) and Bread in the open set; the other set holds 2 of which 1 done. */
export function openState(): WorkspaceState {
  const todos = [todo("milk", { sortOrder: 0 }), todo("oat", { parentId: "milk" }), todo("bread", { sortOrder: 1 })];
  return {
    sets: [set(OPEN, { total: 2, pending: 2 }), set(OTHER, { sortOrder: 1, total: 2, completed: 1, pending: 1 })],
    role: "owner",
    open: { setId: OPEN, list: { todos, role: "owner", permissions: ALL } },
  };
}

let nextId = 1;
/** An event as the stream delivers it. */
export const event = <T extends RealtimeEventType>(type: T, setId: string | null, data: RealtimeEventData[T]): RealtimeEvent => ({
  id: nextId++,
  type,
  teamId: TEAM,
  setId,
  data,
  at: AT,
});

export const countsOf = (state: WorkspaceState, setId: string) => {
  const s = state.sets?.find((x) => x.id === setId);
  return s && { total: s.total, completed: s.completed, pending: s.pending };
};
export const titles = (state: WorkspaceState) => state.open?.list?.todos.map((t) => t.title) ?? null;
