import type { Member, SortItem, Todo } from "../../../api/workspace.ts";

// Pure changes to a set's flat todo list. Each is idempotent where the server's events repeat what
// the page already applied from its own answer, and returns the same array when nothing changes.

const mapTodo = (todos: Todo[], id: string, change: (todo: Todo) => Todo): Todo[] => {
  const at = todos.findIndex((t) => t.id === id);
  if (at < 0) return todos;
  const next = [...todos];
  next[at] = change(todos[at]!);
  return next;
};

/** Adds a todo, or replaces the copy already there (an echo of the page's own creation). */
export const todoAdded = (todos: Todo[], todo: Todo): Todo[] => (todos.some((t) => t.id === todo.id) ? mapTodo(todos, todo.id, () => todo) : [...todos, todo]);

/** The server's copy of a todo the list holds; one it does not hold is left out (it was deleted). */
export const todoReplaced = (todos: Todo[], todo: Todo): Todo[] => mapTodo(todos, todo.id, () => todo);

/** A due is always patched as a pair (the server clears the time with the date). */
export type TodoPatch = Partial<Pick<Todo, "title" | "completed" | "sortOrder" | "dueDate" | "dueTime">>;
export const todoPatched = (todos: Todo[], id: string, patch: TodoPatch): Todo[] => mapTodo(todos, id, (t) => ({ ...t, ...patch }));

/** Spec 2 section 3: a todo goes with all its sub-todos. */
export function subtreeRemoved(todos: Todo[], id: string): Todo[] {
  if (!todos.some((t) => t.id === id)) return todos;
  const gone = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const t of todos)
      if (t.parentId !== null && gone.has(t.parentId) && !gone.has(t.id)) {
        gone.add(t.id);
        grew = true;
      }
  }
  return todos.filter((t) => !gone.has(t.id));
}

export function todosSorted(todos: Todo[], items: SortItem[]): Todo[] {
  const order = new Map(items.map((i) => [i.id, i.sortOrder]));
  if (!todos.some((t) => order.has(t.id) && order.get(t.id) !== t.sortOrder)) return todos;
  return todos.map((t) => {
    const sortOrder = order.get(t.id);
    return sortOrder === undefined || sortOrder === t.sortOrder ? t : { ...t, sortOrder };
  });
}

export const assigneesSet = (todos: Todo[], todoId: string, assignees: Member[]): Todo[] => mapTodo(todos, todoId, (t) => ({ ...t, assignees }));

/** Comment counts follow comment events only: the page's own comment is counted by its echo. */
export const commentsCounted = (todos: Todo[], todoId: string, delta: number): Todo[] =>
  mapTodo(todos, todoId, (t) => ({ ...t, commentCount: Math.max(0, t.commentCount + delta) }));
