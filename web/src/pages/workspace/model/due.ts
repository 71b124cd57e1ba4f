import { addDays, compareDue, type Due, isOverdue, type LocalNow } from "../../../../../src/contract/due-dates.ts";
import type { TodoNode } from "./todo-tree.ts";

export { isOverdue };
export type { Due, LocalNow };

/** The wall clock in `timeZone` (the set's effective zone); the browser's own if the name is unknown here. */
export function localNow(timeZone: string, at = Date.now()): LocalNow {
  const options = { hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" } as const;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US-u-nu-latn", { ...options, timeZone });
  } catch {
    format = new Intl.DateTimeFormat("en-US-u-nu-latn", options);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(at)) part[type] = value;
  return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` };
}

// A calendar date has no zone: formatted as the UTC midnight of that date, read in UTC.
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
const dayYearFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const RELATIVE: Record<string, string> = { "-1": "Yesterday", "0": "Today", "1": "Tomorrow" };

/** "Today", "Tomorrow 09:30", "Fri 5 Dec" (the year only when it is not this one), and whether it is overdue. */
export function describeDue(due: Due, now: LocalNow): { text: string; overdue: boolean } | null {
  if (due.dueDate === null) return null;
  const near = [-1, 0, 1].find((n) => addDays(now.date, n) === due.dueDate);
  const at = new Date(`${due.dueDate}T00:00:00Z`);
  const day =
    near !== undefined ? (RELATIVE[String(near)] as string) : (due.dueDate.slice(0, 4) === now.date.slice(0, 4) ? dayFormat : dayYearFormat).format(at);
  return { text: due.dueTime === null ? day : `${day} ${due.dueTime}`, overdue: isOverdue(due, now) };
}

// The due-sorted copy of each node, while that node is the same: unchanged rows stay the same objects.
const dueSorted = new WeakMap<TodoNode, TodoNode>();

/** Each level of the tree by due date (undated last), keeping the set's order among equals. */
export function sortTreeByDue(nodes: TodoNode[]): TodoNode[] {
  return [...nodes].sort(compareDue).map((node) => {
    let sorted = dueSorted.get(node);
    if (!sorted) {
      const children = sortTreeByDue(node.children);
      sorted = children.every((c, i) => c === node.children[i]) ? node : { ...node, children };
      dueSorted.set(node, sorted);
    }
    return sorted;
  });
}
