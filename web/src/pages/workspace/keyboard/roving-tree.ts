/**
 * The todo tree's one Tab stop (WAI-ARIA APG "Tree View", roving tabindex): in each
 * `role="tree"` one row is tabbable; the controls of the other rows are taken out of the Tab order,
 * so Tab goes from the row into its own controls and then out of the list. Read from the DOM, so
 * a control another part of the page adds to a row follows the same rule.
 */

const ROW = '[role="treeitem"]';
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([role="treeitem"])';
// The tabindex a control had before it left the Tab order ("" for none), to give it back.
const PARKED = "data-roving-tabindex";

export const rowOf = (el: Element | null): HTMLElement | null => el?.closest<HTMLElement>(ROW) ?? null;

/** The tree's rows a person can see, in reading order (a closed Completed section hides its rows). */
export const visibleRows = (tree: Element): HTMLElement[] => [...tree.querySelectorAll<HTMLElement>(ROW)].filter((row) => row.getClientRects().length > 0);

/** The row holding the tree's Tab stop: the one marked, else the first. */
function stopOf(tree: Element): HTMLElement | null {
  const rows = [...tree.querySelectorAll<HTMLElement>(ROW)];
  return rows.find((row) => row.getAttribute("tabindex") === "0") ?? rows[0] ?? null;
}

function park(el: HTMLElement, inTabOrder: boolean) {
  const saved = el.getAttribute(PARKED);
  if (inTabOrder && saved !== null) {
    if (saved === "") el.removeAttribute("tabindex");
    else el.setAttribute("tabindex", saved);
    el.removeAttribute(PARKED);
  } else if (!inTabOrder && saved === null && el.tabIndex >= 0) {
    el.setAttribute(PARKED, el.getAttribute("tabindex") ?? "");
    el.setAttribute("tabindex", "-1");
  }
}

/** Makes `stop` (or the tree's current stop) its only tabbable row, and only its own controls tabbable. */
export function syncTabStops(tree: Element, stop: HTMLElement | null = stopOf(tree)) {
  for (const row of tree.querySelectorAll<HTMLElement>(ROW)) {
    const tabIndex = row === stop ? "0" : "-1";
    if (row.getAttribute("tabindex") !== tabIndex) row.setAttribute("tabindex", tabIndex);
  }
  for (const el of tree.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    const row = rowOf(el);
    if (row) park(el, row === stop);
  }
}

/** Where an arrow, Home or End key moves from `row` (APG tree keys; the tree has no collapsed rows). */
export function rowForKey(tree: Element, row: HTMLElement, key: string): HTMLElement | null {
  const rows = visibleRows(tree);
  const at = rows.indexOf(row);
  if (key === "ArrowDown") return rows[at + 1] ?? null;
  if (key === "ArrowUp") return at > 0 ? (rows[at - 1] ?? null) : null;
  if (key === "Home") return rows[0] ?? null;
  if (key === "End") return rows[rows.length - 1] ?? null;
  // Rows are always expanded: Right goes into the first sub-todo, Left back to the parent.
  if (key === "ArrowRight") return row.querySelector<HTMLElement>(`:scope > [role="group"] > ${ROW}`);
  if (key === "ArrowLeft") {
    const parent = rowOf(row.parentElement);
    return parent && tree.contains(parent) ? parent : null;
  }
  return null;
}
