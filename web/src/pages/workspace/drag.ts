import { placeAt } from "./model/todo-tree.ts";

/**
 * Drag-and-drop reordering within one list of ids (HTML5 drag events), plus Alt+Arrow keys on
 * the handle for keyboards. `onOrder` receives the new order of the whole list. `list` may be a
 * function, read when a drop or key comes: a row that is not rendered again still sees its
 * siblings as they are then.
 */
export function dragProps(list: string[] | (() => string[]), id: string, enabled: boolean, onOrder: (ids: string[]) => void, group: string) {
  if (!enabled) return {};
  const read = typeof list === "function" ? list : () => list;
  return {
    draggable: true,
    // Focusable, so Alt+Arrow works from the keyboard too.
    tabIndex: 0,
    onDragStart: (e: DragEvent) => {
      // Nested lists: only the innermost dragged item speaks.
      e.stopPropagation();
      e.dataTransfer?.setData(`application/x-cairn-${group}`, id);
      if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
    },
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer?.types.includes(`application/x-cairn-${group}`)) e.preventDefault();
    },
    onDrop: (e: DragEvent) => {
      const dragged = e.dataTransfer?.getData(`application/x-cairn-${group}`);
      const ids = read();
      if (!dragged || dragged === id || !ids.includes(dragged)) return;
      e.preventDefault();
      e.stopPropagation();
      onOrder(placeAt(ids, dragged, ids.indexOf(id)));
    },
    onKeyDown: (e: KeyboardEvent) => {
      if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
      e.preventDefault();
      e.stopPropagation();
      const ids = read();
      const index = ids.indexOf(id);
      const to = e.key === "ArrowUp" ? index - 1 : index + 1;
      if (to >= 0 && to < ids.length) onOrder(placeAt(ids, id, to));
    },
  };
}
