import type { SvgSet, SvgTodo } from "./svg-input.ts";

export type ChecklistRow =
  | { kind: "todo"; todo: SvgTodo; level: number }
  | { kind: "separator"; completedCount: number }
  | { kind: "more"; hiddenCount: number };

type Entry = { todo: SvgTodo; level: number };

// A todo hangs under its parent unless the parent is missing or the chain loops back to
// it; either way it is drawn at the top level rather than lost.
function effectiveParents(todos: readonly SvgTodo[]): Map<string, string | null> {
  const parentOf = new Map(todos.map((todo) => [todo.id, todo.parentId] as const));
  const effective = new Map<string, string | null>();
  for (const todo of todos) {
    let cursor = todo.parentId;
    let steps = 0;
    while (cursor !== null && cursor !== todo.id && parentOf.has(cursor) && steps++ < todos.length) {
      cursor = parentOf.get(cursor) ?? null;
    }
    const attached = todo.parentId !== null && parentOf.has(todo.parentId) && cursor !== todo.id;
    effective.set(todo.id, attached ? todo.parentId : null);
  }
  return effective;
}

function childrenByParent(todos: readonly SvgTodo[]): Map<string | null, SvgTodo[]> {
  const parents = effectiveParents(todos);
  const children = new Map<string | null, SvgTodo[]>();
  for (const todo of todos) {
    const key = parents.get(todo.id) ?? null;
    const siblings = children.get(key);
    if (siblings) siblings.push(todo);
    else children.set(key, [todo]);
  }
  // Stable sort keeps the API's order among equal sortOrder values.
  for (const list of children.values()) list.sort((a, b) => a.sortOrder - b.sortOrder);
  return children;
}

function flatten(roots: readonly SvgTodo[], children: Map<string | null, SvgTodo[]>): Entry[] {
  const out: Entry[] = [];
  const visit = (todo: SvgTodo, level: number) => {
    out.push({ todo, level });
    for (const child of children.get(todo.id) ?? []) visit(child, level + 1);
  };
  for (const root of roots) visit(root, 0);
  return out;
}

/**
 * The checklist's rows: each top-level todo followed by its subtree; with splitCompleted,
 * completed top-level todos (and their subtrees) after the open ones under a separator
 * (spec 2 section 2.1). At most `maxItems` todo rows, then a "+ N more" row.
 */
export function buildChecklistRows(set: SvgSet, maxItems: number | null): ChecklistRow[] {
  const children = childrenByParent(set.todos);
  const roots = children.get(null) ?? [];
  const doneRoots = set.splitCompleted ? roots.filter((todo) => todo.completed) : [];
  const open = flatten(set.splitCompleted ? roots.filter((todo) => !todo.completed) : roots, children);
  const done = flatten(doneRoots, children);
  const limit = maxItems ?? open.length + done.length;
  const shownOpen = open.slice(0, limit);
  const shownDone = done.slice(0, Math.max(0, limit - shownOpen.length));
  const hiddenCount = open.length + done.length - shownOpen.length - shownDone.length;
  const rows: ChecklistRow[] = shownOpen.map((entry) => ({ kind: "todo", ...entry }));
  if (shownDone.length > 0) {
    rows.push({ kind: "separator", completedCount: doneRoots.length });
    rows.push(...shownDone.map((entry) => ({ kind: "todo" as const, ...entry })));
  }
  if (hiddenCount > 0) rows.push({ kind: "more", hiddenCount });
  return rows;
}
