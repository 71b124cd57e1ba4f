import { duplicateSibling, parseFailed } from "./import-export.errors.ts";
import { cleanLine } from "../../shared/text.ts";
import type { TreeTodo } from "./tree.ts";

// Spec 2 section 4.1: "Markdown default name is `Imported Set`"; also the name of a bare JSON/YAML
// array or of a JSON/YAML set without a name. Set settings an import does not carry take the
// section 2.1 defaults.
export const DEFAULT_SET_NAME = "Imported Set";
export const SET_DEFAULTS = { autoRenew: false, renewTime: "00:00", timezone: "", splitCompleted: false };

// Not in the spec (section 8 leaves sizes open); chosen so one import stays one short transaction.
const MAX_CONTENT_BYTES = 2 * 1024 * 1024;
export const MAX_DEPTH = 20;
export const MAX_IMPORTED_ITEMS = 10_000;
/** The API's own limit on titles and set names (todo and set schemas). */
const MAX_LINE = 1000;

/** A title or name as the API would store it (cleanLine); longer than the API allows is refused. */
export function importedLine(raw: string, what: string): string {
  const line = cleanLine(raw);
  if (line.length > MAX_LINE) throw parseFailed(`${what} is longer than ${MAX_LINE} characters`);
  return line;
}

/** Refuses content over MAX_CONTENT_BYTES (UTF-8), before any parser sees it. */
export function assertContentSize(content: string): void {
  const bytes = new TextEncoder().encode(content).length;
  if (bytes > MAX_CONTENT_BYTES) throw parseFailed(`content is ${bytes} bytes, more than ${MAX_CONTENT_BYTES}`);
}

/** Refuses trees deeper than MAX_DEPTH (roots are depth 1) or with more than MAX_IMPORTED_ITEMS todos. */
export function assertTreeLimits(todos: TreeTodo[]): void {
  // Iterative, so a pathological tree cannot exhaust the stack before it is refused.
  const pending = todos.map((todo) => ({ todo, depth: 1 }));
  let count = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > MAX_DEPTH) throw parseFailed(`todos nest deeper than ${MAX_DEPTH} levels`);
    if (++count > MAX_IMPORTED_ITEMS) throw parseFailed(`more than ${MAX_IMPORTED_ITEMS} todos`);
    for (const todo of next.todo.children) pending.push({ todo, depth: next.depth + 1 });
  }
}

/**
 * Spec 2 section 2.2: a title is unique among its siblings (trimmed, exact case). Roots must also
 * differ from `existingRootTitles`, the root titles already in the set an import appends to.
 */
export function assertUniqueSiblings(todos: TreeTodo[], existingRootTitles: string[] = []): void {
  const pending: { siblings: TreeTodo[]; taken: string[] }[] = [{ siblings: todos, taken: existingRootTitles }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const seen = new Set(next.taken.map((title) => title.trim()));
    for (const todo of next.siblings) {
      const title = todo.title.trim();
      if (seen.has(title)) throw duplicateSibling(title);
      seen.add(title);
      pending.push({ siblings: todo.children, taken: [] });
    }
  }
}
