import { useEffect, useRef } from "preact/hooks";
import { nearRows, rowForKey, rowOf, syncAdded, syncTabStops } from "./roving-tree.ts";

const TREE = '[role="tree"]';
const NAV_KEYS = new Set(["ArrowDown", "ArrowUp", "ArrowRight", "ArrowLeft", "Home", "End"]);
/** Set on the list while a row is about to be focused: page-wide shortcuts wait (see shortcuts.ts). */
export const FOCUS_PENDING = "data-focus-pending";

type Memory = {
  /** A row asked for by id (a todo just added) that may not be rendered yet. */
  wanted: string | null;
  /** The element last focused in the list, and where its row stood among its neighbours, to find one once it is gone. */
  last: Element | null;
  near: { tree: Element; id: string; order: string[] } | null;
};

export type TreeKeyboard = {
  ref: { current: HTMLDivElement | null };
  /** Focuses a todo's row now, or as soon as it is rendered. */
  focusTodo: (id: string) => void;
};

const idOf = (row: HTMLElement) => row.dataset.todoId ?? "";

/**
 * The todo list's keyboard (issue 42): one Tab stop per tree, arrows between rows, Escape back to
 * the row; and focus never left on <body>, where the next key would be a page shortcut. When the
 * focused element goes away (a saved edit, a deleted, moved, completed or reordered todo), focus
 * goes to the same row, else the next, else the previous, else the New todo field.
 */
export function useTreeKeyboard(): TreeKeyboard {
  const ref = useRef<HTMLDivElement>(null);
  const memory = useRef<Memory>({ wanted: null, last: null, near: null });

  const focusRow = (row: HTMLElement) => {
    const tree = row.closest(TREE);
    if (tree) syncTabStops(tree, row);
    row.focus();
  };
  const shownRow = (scope: Element, id: string) =>
    [...scope.querySelectorAll<HTMLElement>(`[role="treeitem"][data-todo-id="${CSS.escape(id)}"]`)].find((row) => row.getClientRects().length > 0);
  const settle = (wanted: string | null) => {
    memory.current.wanted = wanted;
    ref.current?.toggleAttribute(FOCUS_PENDING, wanted !== null);
  };
  const focusWanted = (): boolean => {
    const { wanted } = memory.current;
    const row = wanted && ref.current ? shownRow(ref.current, wanted) : undefined;
    if (!row) return false;
    settle(null);
    focusRow(row);
    return true;
  };

  const focusTodo = (id: string) => {
    settle(id);
    focusWanted();
  };

  useEffect(() => {
    const list = ref.current;
    if (!list) return;
    const m = memory.current;
    const lost = () => document.activeElement === null || document.activeElement === document.body;
    const remember = () => {
      const row = rowOf(document.activeElement);
      const tree = row?.closest(TREE);
      if (row && tree && list.contains(tree)) m.near = { tree, id: idOf(row), order: nearRows(tree, row).map(idOf) };
    };
    const recover = () => {
      const near = m.near;
      if (!near?.tree.isConnected) return;
      const at = near.order.indexOf(near.id);
      const candidates = [near.id, ...near.order.slice(at + 1), ...near.order.slice(0, Math.max(at, 0)).reverse()];
      for (const id of candidates) {
        const row = shownRow(near.tree, id);
        if (row) return focusRow(row);
      }
      list.querySelector<HTMLInputElement>(":scope > .ws-title-input input:not(:disabled)")?.focus();
    };
    const syncAll = () => {
      for (const tree of list.querySelectorAll(TREE)) syncTabStops(tree);
    };

    const onMutations = (records: MutationRecord[]) => {
      // Rows only added (a long list growing as it scrolls): their own sync; anything removed: all of it.
      if (records.some((r) => r.removedNodes.length > 0)) syncAll();
      else
        for (const r of records)
          for (const node of r.addedNodes) {
            const tree = node instanceof Element ? node.closest(TREE) : null;
            if (tree && node instanceof Element) syncAdded(tree, node);
          }
      if (m.wanted !== null) return void focusWanted();
      const last = m.last;
      // Only focus that went away with its element: a click on the page's background is left alone.
      const removed = last !== null && (!last.isConnected || records.some((r) => [...r.removedNodes].some((node) => node.contains(last))));
      if (removed && lost()) recover();
      else remember();
    };
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target as Element;
      if (!list.contains(target)) {
        // The person went elsewhere: a row asked for earlier no longer should take the focus.
        if (m.wanted !== null && target !== document.body) settle(null);
        return;
      }
      m.last = target;
      const row = rowOf(target);
      const tree = row?.closest(TREE);
      if (row && tree) syncTabStops(tree, row);
      remember();
    };
    // A dialog opened from a row gives focus back to its opener; when that went meanwhile, to a neighbour.
    const onDialogClose = () => {
      if (lost()) recover();
    };
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      const row = rowOf(target);
      const tree = row?.closest(TREE);
      if (!row || !tree || !list.contains(tree)) return;
      if (target !== row) {
        if (e.key === "Escape") {
          e.preventDefault();
          focusRow(row);
        }
        return;
      }
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.key === " ") {
        // The row is a checkable tree item: Space completes or reopens it, as its checkbox does.
        const check = row.querySelector<HTMLInputElement>(":scope > .ws-todo-row .ws-check");
        e.preventDefault();
        if (check && !check.disabled) check.click();
        return;
      }
      if (!NAV_KEYS.has(e.key)) return;
      // At either end the key does nothing, rather than scroll the page.
      e.preventDefault();
      const to = rowForKey(tree, row, e.key);
      if (to) focusRow(to);
    };

    syncAll();
    const observer = new MutationObserver(onMutations);
    observer.observe(list, { childList: true, subtree: true });
    list.addEventListener("keydown", onKey);
    list.addEventListener("close", onDialogClose, true);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      observer.disconnect();
      list.removeEventListener("keydown", onKey);
      list.removeEventListener("close", onDialogClose, true);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, []);

  return { ref, focusTodo };
}
