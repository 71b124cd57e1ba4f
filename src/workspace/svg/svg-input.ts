/** A todo as the SVG renderers need it; `parentId` null for top-level todos. */
export type SvgTodo = { id: string; parentId: string | null; title: string; completed: boolean; sortOrder: number };

/** A set with its todos flat, in the API's order (sub-todos included). */
export type SvgSet = { name: string; splitCompleted: boolean; todos: SvgTodo[] };

/** Raw query-string values of an SVG request. */
export type SvgQuery = Record<string, string | undefined>;

export type Progress = { done: number; total: number };

/** Spec 2 section 2.1: set counts are of top-level todos. */
export function countTopLevel(todos: readonly SvgTodo[]): Progress {
  const topLevel = todos.filter((todo) => todo.parentId === null);
  return { done: topLevel.filter((todo) => todo.completed).length, total: topLevel.length };
}

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;

/** A decimal query value rounded and clamped into [min, max]; undefined when absent or not a number. */
export function readClampedInt(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !DECIMAL.test(value)) return undefined;
  return Math.min(max, Math.max(min, Math.round(Number(value))));
}

const MAX_PARAM = 200;

// Spec 2 section 4.4's parameter tables. Anything else is ignored, so it can neither change the
// image nor make another cache entry.
export const BADGE_PARAMS = ["style", "label", "message", "color", "labelColor"] as const;
export const CHECKLIST_PARAMS = [
  "theme",
  "title",
  "width",
  "fontSize",
  "maxItems",
  "showProgress",
  "bgColor",
  "textColor",
  "checkColor",
  "borderColor",
] as const;

/**
 * The known parameters, as text of at most 200 characters (a longer label only makes a wider
 * image and another cache entry); a parameter that arrives as a list counts once.
 */
export function knownValues(raw: Record<string, unknown>, known: readonly string[]): SvgQuery {
  const out: SvgQuery = {};
  for (const key of known) {
    const value = raw[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out[key] = first.slice(0, MAX_PARAM);
  }
  return out;
}
