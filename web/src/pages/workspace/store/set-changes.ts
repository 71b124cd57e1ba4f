import type { SetFields, SortItem, Todo, TodoSet } from "../../../api/workspace.ts";

// Pure changes to the sidebar's sets, kept in the server's order (sortOrder, then creation).

const inOrder = (sets: TodoSet[]) => [...sets].sort((a, b) => a.sortOrder - b.sortOrder || a.createdAt.localeCompare(b.createdAt));

/** A set the page made itself: a new set is empty. */
export const setAdded = (sets: TodoSet[], set: SetFields): TodoSet[] =>
  sets.some((s) => s.id === set.id) ? sets : inOrder([...sets, { ...set, total: 0, completed: 0, pending: 0 }]);

/** New fields for a set the list holds; its counts stay (set events do not carry them). */
export const setMerged = (sets: TodoSet[], id: string, fields: Partial<SetFields>): TodoSet[] =>
  inOrder(sets.map((s) => (s.id === id ? { ...s, ...fields, id, total: s.total, completed: s.completed, pending: s.pending } : s)));

export const setRemoved = (sets: TodoSet[], id: string): TodoSet[] => (sets.some((s) => s.id === id) ? sets.filter((s) => s.id !== id) : sets);

export function setsSorted(sets: TodoSet[], items: SortItem[]): TodoSet[] {
  const order = new Map(items.map((i) => [i.id, i.sortOrder]));
  return inOrder(sets.map((s) => ({ ...s, sortOrder: order.get(s.id) ?? s.sortOrder })));
}

/** Spec 2 section 2.1: counts are of top-level todos, so a sub-todo changes nothing. */
export function rootCounted(sets: TodoSet[], setId: string, todo: Todo, sign: 1 | -1): TodoSet[] {
  if (todo.parentId !== null) return sets;
  return sets.map((s) => {
    if (s.id !== setId) return s;
    const total = s.total + sign;
    const completed = s.completed + (todo.completed ? sign : 0);
    return { ...s, total, completed, pending: total - completed };
  });
}
