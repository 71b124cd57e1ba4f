import type { Todo } from "../../../api/workspace.ts";

export type TodoNode = Todo & { children: TodoNode[] };

/** The flat list of the API as a tree, each level ordered by sortOrder; orphans become roots. */
export function buildTree(todos: Todo[]): TodoNode[] {
  return treeBuilder()(todos);
}

const bySortOrder = (a: Todo, b: Todo) => a.sortOrder - b.sortOrder || a.createdAt.localeCompare(b.createdAt);

/**
 * buildTree that remembers its last tree: a node whose todo (the same object) and children are
 * unchanged is the same node as before, so the rows of a long list that did not change are not
 * rendered again (issue 43: a set of 100,000 todos).
 */
export function treeBuilder(): (todos: Todo[]) => TodoNode[] {
  let previous = new Map<string, { todo: Todo; node: TodoNode }>();
  return (todos) => {
    const ids = new Set(todos.map((t) => t.id));
    const kids = new Map<string | null, Todo[]>();
    for (const t of todos) {
      const parent = t.parentId !== null && ids.has(t.parentId) ? t.parentId : null;
      const list = kids.get(parent);
      if (list) list.push(t);
      else kids.set(parent, [t]);
    }
    const next = new Map<string, { todo: Todo; node: TodoNode }>();
    const make = (todo: Todo): TodoNode => {
      const children = (kids.get(todo.id) ?? []).sort(bySortOrder).map(make);
      const was = previous.get(todo.id);
      const same =
        was !== undefined && was.todo === todo && was.node.children.length === children.length && was.node.children.every((c, i) => c === children[i]);
      const node = same ? was.node : { ...todo, children };
      next.set(todo.id, { todo, node });
      return node;
    };
    const roots = (kids.get(null) ?? []).sort(bySortOrder).map(make);
    previous = next;
    return roots;
  };
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
