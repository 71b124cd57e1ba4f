import { describe, expect, it } from "bun:test";
import { addDays, compareDue, isDueDate, isDueSoon, isDueTime, isOverdue } from "../../src/contract/due-dates.ts";
import { describeDue, localNow, sortTreeByDue } from "../../web/src/pages/workspace/model/due.ts";
import type { TodoNode } from "../../web/src/pages/workspace/model/todo-tree.ts";
import { todo } from "./spa-store.fixtures.ts";

// The due-date rules the server and the SPA share (src/contract/due-dates.ts), and the SPA's reading of them.

const due = (dueDate: string | null, dueTime: string | null = null) => ({ dueDate, dueTime });
const node = (id: string, dueDate: string | null, dueTime: string | null = null, children: TodoNode[] = []): TodoNode => ({
  ...todo(id, { dueDate, dueTime }),
  children,
});

describe("due dates: the values", () => {
  it("takes real calendar dates as YYYY-MM-DD and 24-hour HH:MM, nothing else", () => {
    expect(["2026-12-05", "2024-02-29", "2026-01-31"].every(isDueDate)).toBe(true);
    expect(["2025-02-29", "2026-02-30", "2026-13-01", "2026-1-05", "2026-12-05T00:00", "", null, 20261205].some(isDueDate)).toBe(false);
    expect(["00:00", "09:30", "23:59"].every(isDueTime)).toBe(true);
    expect(["24:00", "9:30", "12:60", "12:30:00", ""].some(isDueTime)).toBe(false);
    expect([addDays("2026-12-30", 7), addDays("2024-02-28", 1), addDays("2026-03-01", -1)]).toEqual(["2027-01-06", "2024-02-29", "2026-02-28"]);
  });

  it("is overdue once its day (date only) or its minute (with a time) has passed, in the zone's wall clock", () => {
    const now = { date: "2026-12-05", time: "14:30" };
    expect(isOverdue(due("2026-12-04"), now)).toBe(true);
    expect(isOverdue(due("2026-12-05"), now)).toBe(false);
    expect(isOverdue(due("2026-12-05", "14:29"), now)).toBe(true);
    expect(isOverdue(due("2026-12-05", "14:30"), now)).toBe(false);
    expect(isOverdue(due(null), now)).toBe(false);
    expect([isDueSoon(due("2026-12-12"), now), isDueSoon(due("2026-12-13"), now), isDueSoon(due("2020-01-01"), now)]).toEqual([true, false, true]);
  });

  it("sorts earliest first, a date-only due before the timed ones of its day, undated last", () => {
    const list = [due(null), due("2026-12-06"), due("2026-12-05", "09:00"), due("2026-12-05"), due("2026-12-05", "08:00")];
    expect([...list].sort(compareDue)).toEqual([due("2026-12-05"), due("2026-12-05", "08:00"), due("2026-12-05", "09:00"), due("2026-12-06"), due(null)]);
  });
});

describe("due dates in the SPA", () => {
  it("reads the wall clock in a zone", () => {
    const at = Date.parse("2026-03-10T11:30:00Z");
    expect(localNow("Pacific/Auckland", at)).toEqual({ date: "2026-03-11", time: "00:30" });
    expect(localNow("America/Los_Angeles", at)).toEqual({ date: "2026-03-10", time: "04:30" });
  });

  it("says Today, Tomorrow, Yesterday near now, the day otherwise (with the year when not this one), and the time", () => {
    const now = { date: "2026-12-05", time: "10:00" };
    expect(describeDue(due("2026-12-05"), now)).toEqual({ text: "Today", overdue: false });
    expect(describeDue(due("2026-12-06", "18:30"), now)).toEqual({ text: "Tomorrow 18:30", overdue: false });
    expect(describeDue(due("2026-12-04"), now)).toEqual({ text: "Yesterday", overdue: true });
    expect(describeDue(due("2026-12-05", "09:59"), now)?.overdue).toBe(true);
    expect(describeDue(due("2026-12-11"), now)?.text).toContain("11");
    expect(describeDue(due("2027-01-11"), now)?.text).toContain("2027");
    expect(describeDue(due(null), now)).toBeNull();
  });

  it("sorts each level of the tree by due date, undated last in the set's own order", () => {
    const tree = [node("a", null), node("b", "2026-12-09", null, [node("b1", null), node("b2", "2026-12-01")]), node("c", "2026-12-02"), node("d", null)];
    const sorted = sortTreeByDue(tree);
    expect(sorted.map((n) => n.id)).toEqual(["c", "b", "a", "d"]);
    expect(sorted[1]?.children.map((n) => n.id)).toEqual(["b2", "b1"]);
    expect(tree.map((n) => n.id)).toEqual(["a", "b", "c", "d"]);
  });
});
