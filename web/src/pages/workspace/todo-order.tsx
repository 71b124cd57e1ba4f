import { useId, useState } from "preact/hooks";

/** How a set's list is shown: as its members arranged it, or by due date. */
export type TodoOrder = "position" | "due";

const keyOf = (setId: string) => `cairn.todo-order.${setId}`;

/** The order chosen for a set, remembered in this browser. */
export function useTodoOrder(setId: string): [TodoOrder, (order: TodoOrder) => void] {
  const read = (): TodoOrder => {
    try {
      return localStorage.getItem(keyOf(setId)) === "due" ? "due" : "position";
    } catch {
      return "position";
    }
  };
  const [order, setOrder] = useState(read);
  const choose = (next: TodoOrder) => {
    setOrder(next);
    try {
      localStorage.setItem(keyOf(setId), next);
    } catch {
      // Private windows may refuse storage: the choice then lasts as long as the page.
    }
  };
  return [order, choose];
}

export function OrderPicker({ value, onChange }: { value: TodoOrder; onChange: (order: TodoOrder) => void }) {
  const id = useId();
  return (
    <span class="ws-order">
      <label for={id}>Sort todos</label>
      <select id={id} class="input input-compact" value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as TodoOrder)}>
        <option value="position">As arranged</option>
        <option value="due">By due date</option>
      </select>
    </span>
  );
}
