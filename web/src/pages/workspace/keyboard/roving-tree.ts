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

/**
 * `row` among its nearest visible rows in reading order: up to `k` before and `k` after. Walks
 * the DOM from the row, so it costs the same in a list of 10 rows and of 10,000.
 */
export function nearRows(tree: Element, row: HTMLElement, k = 8): HTMLElement[] {
  const visible = (node: Node) => (node as HTMLElement).matches(ROW) && (node as HTMLElement).getClientRects().length > 0;
  const walker = () => {
    const w = document.createTreeWalker(tree, NodeFilter.SHOW_ELEMENT, { acceptNode: (n) => (visible(n) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP) });
    w.currentNode = row;
    return w;
  };
  const after: HTMLElement[] = [];
  const forward = walker();
  while (after.length < k && forward.nextNode()) after.push(forward.currentNode as HTMLElement);
  const before: HTMLElement[] = [];
  const back = walker();
  while (before.length < k && back.previousNode()) before.unshift(back.currentNode as HTMLElement);
  return [...before, row, ...after];
}

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

/**
 * What syncTabStops would do, for the rows and controls of `added` only (a long list growing,
 * issue 43): none of them is the Tab stop, unless the tree has none yet, when the whole tree is
 * synced. Cost follows what was added, not the size of the list.
 */
export function syncAdded(tree: Element, added: Element) {
  const stop = tree.querySelector<HTMLElement>(`${ROW}[tabindex="0"]`);
  if (!stop) return syncTabStops(tree);
  const rows = added.matches(ROW) ? [added as HTMLElement, ...added.querySelectorAll<HTMLElement>(ROW)] : [...added.querySelectorAll<HTMLElement>(ROW)];
  for (const row of rows) if (row !== stop && row.getAttribute("tabindex") !== "-1") row.setAttribute("tabindex", "-1");
  const controls = added.matches(FOCUSABLE)
    ? [added as HTMLElement, ...added.querySelectorAll<HTMLElement>(FOCUSABLE)]
    : [...added.querySelectorAll<HTMLElement>(FOCUSABLE)];
  for (const el of controls) {
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
