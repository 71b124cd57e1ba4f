import type { Todo } from "../../../api/workspace.ts";

// The list comes in pages ordered by creation time and id (the server's keyset, which no write
// changes: issue 43). A run of pages covers a range of that order; merging it replaces what the
// page holds for that range, so a todo deleted meanwhile goes and the others are the server's.

/** A todo's place in the pages' order: its creation time (ISO 8601 compares as text) and id. */
export type PageKey = readonly [createdAt: string, id: string];
export const keyOf = (todo: Todo): PageKey => [todo.createdAt, todo.id];

const before = (a: PageKey, b: PageKey) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** The range (after, upTo] of the order; null ends are open: before everything, after everything. */
export type PageRange = { after: PageKey | null; upTo: PageKey | null };

export const inRange = (key: PageKey, { after, upTo }: PageRange) => (after === null || before(after, key)) && (upTo === null || !before(upTo, key));

/**
 * `todos` with the range replaced by `fetched` (the pages read for it): the todos there that the
 * pages no longer hold are dropped, the others take the pages' copies, new ones are added at the
 * end. The same array when nothing changes.
 */
export function rangeMerged(todos: Todo[], fetched: Todo[], range: PageRange): Todo[] {
  const fresh = new Map(fetched.map((t) => [t.id, t]));
  let changed = false;
  const next: Todo[] = [];
  for (const t of todos) {
    const copy = fresh.get(t.id);
    if (copy) {
      fresh.delete(t.id);
      next.push(copy);
      if (copy !== t) changed = true;
    } else if (inRange(keyOf(t), range)) changed = true;
    else next.push(t);
  }
  for (const t of fresh.values()) {
    next.push(t);
    changed = true;
  }
  return changed ? next : todos;
}

/**
 * Todos whose parent is not in the list, while pages are still coming: the parent may come in a
 * later page (a sub-todo made in the same millisecond as its parent can sort before it), so they
 * wait rather than show as top-level todos.
 */
export function withoutOrphans(todos: Todo[]): Todo[] {
  const byId = new Map(todos.map((t) => [t.id, t]));
  // Whether each todo reaches a top-level one through parents that are here (memoised walk up).
  const rooted = new Map<string, boolean>();
  const isRooted = (start: Todo): boolean => {
    const path = new Set<string>();
    let t: Todo | undefined = start;
    let answer = false;
    while (t) {
      const known = rooted.get(t.id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      path.add(t.id);
      if (t.parentId === null) {
        answer = true;
        break;
      }
      t = byId.get(t.parentId);
      // A cycle (never written by the server): held, rather than walked for ever.
      if (t && path.has(t.id)) break;
    }
    for (const id of path) rooted.set(id, answer);
    return answer;
  };
  const kept = todos.filter(isRooted);
  return kept.length === todos.length ? todos : kept;
}
