import { ACTION_KEYS, type ActionKey, DEFAULT_ACTION_BAR } from "../../../api/workspace.ts";

// Preferences name each action exactly as its button does.
export { ACTION_LABELS } from "../model/todo-actions.ts";

/** null means "the default", so edits start from the order the user actually sees. */
const effective = (bar: ActionKey[] | null): ActionKey[] => bar ?? DEFAULT_ACTION_BAR;

export type ActionRow = { key: ActionKey; shown: boolean; position: number };

/** Shown actions in their order, then the hidden ones in the spec's order. */
export function actionRows(bar: ActionKey[] | null): ActionRow[] {
  const shown = effective(bar);
  const hidden = ACTION_KEYS.filter((key) => !shown.includes(key));
  return [...shown.map((key, position) => ({ key, shown: true, position })), ...hidden.map((key) => ({ key, shown: false, position: -1 }))];
}

/** Shows an action (at the end) or hides it. */
export function toggleAction(bar: ActionKey[] | null, key: ActionKey, shown: boolean): ActionKey[] {
  const current = effective(bar).filter((k) => k !== key);
  return shown ? [...current, key] : current;
}

/** Moves a shown action one place earlier (-1) or later (+1); at either end nothing changes. */
export function moveAction(bar: ActionKey[] | null, key: ActionKey, delta: -1 | 1): ActionKey[] {
  const next = [...effective(bar)];
  const from = next.indexOf(key);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= next.length) return next;
  [next[from], next[to]] = [next[to] as ActionKey, key];
  return next;
}
