import type { Todo } from "../../../api/workspace.ts";

export type TodoNode = Todo & { children: TodoNode[] };

/** The flat list of the API as a tree, each level ordered by sortOrder; orphans become roots. */
export function buildTree(todos: Todo[]): TodoNode[] {
  const nodes = new Map<string, TodoNode>(todos.map((t) => [t.id, { ...t, children: [] }]));
  const roots: TodoNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: TodoNode[]) => {
    list.sort((a, b) => a.sortOrder - b.sortOrder || a.createdAt.localeCompare(b.createdAt));
    for (const node of list) sort(node.children);
  };
  sort(roots);
  return roots;
}

/** Spec 2 section 2.1 splitCompleted: completed top-level todos go to their own section. */
export function splitRoots(roots: TodoNode[], split: boolean): { open: TodoNode[]; done: TodoNode[] } {
  if (!split) return { open: roots, done: [] };
  return { open: roots.filter((t) => !t.completed), done: roots.filter((t) => t.completed) };
}

/** The siblings' ids after moving `id` to `index` (or inserting it there when new). */
export function placeAt(ids: string[], id: string, index: number): string[] {
  const rest = ids.filter((x) => x !== id);
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}

/** Reorder items for the API: consistent integers 0..n-1 (spec 2 section 4.1, "caller supplies consistent integers"). */
export const orderItems = (ids: string[]) => ids.map((id, sortOrder) => ({ id, sortOrder }));

/** Counts for the header: top-level todos, as the set list counts them. */
export function counts(todos: Todo[]): { total: number; completed: number } {
  const roots = todos.filter((t) => t.parentId === null);
  return { total: roots.length, completed: roots.filter((t) => t.completed).length };
}
