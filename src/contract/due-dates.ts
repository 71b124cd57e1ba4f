// A todo's due date, shared by the server (validation, sorting, the Due soon view) and the SPA
// (rows, sorting). A due is a calendar date and an optional wall-clock time in the set's time
// zone, never an instant, so every comparison here is of zero-padded text, which orders as time.

/** A todo's due: `dueDate` `YYYY-MM-DD` or null; `dueTime` `HH:MM` (24-hour), only with a date. */
export type Due = { dueDate: string | null; dueTime: string | null };

/** "Now" as a wall clock in the set's time zone. */
export type LocalNow = { date: string; time: string };

/** The Due soon view: todos due from today through this many days ahead, and overdue ones. */
export const DUE_SOON_DAYS = 7;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const DAY_MS = 86_400_000;
const utcMidnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** A real calendar date written `YYYY-MM-DD`: `2026-02-30` is refused, not rolled over. */
export function isDueDate(value: unknown): value is string {
  if (typeof value !== "string" || !DATE.test(value)) return false;
  const ms = utcMidnight(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value);
}

export const isDueTime = (value: unknown): value is string => typeof value === "string" && TIME.test(value);

/** `date` moved by `days` calendar days (whole UTC days: no zone, no daylight saving). */
export const addDays = (date: string, days: number): string => new Date(utcMidnight(date) + days * DAY_MS).toISOString().slice(0, 10);

/** A date-only due is overdue once its day has passed; a timed one once its minute has. */
export function isOverdue(due: Due, now: LocalNow): boolean {
  if (due.dueDate === null) return false;
  if (due.dueDate !== now.date) return due.dueDate < now.date;
  return due.dueTime !== null && due.dueTime < now.time;
}

/** Due within DUE_SOON_DAYS (today included), or overdue. */
export const isDueSoon = (due: Due, now: LocalNow): boolean => due.dueDate !== null && due.dueDate <= addDays(now.date, DUE_SOON_DAYS);

/** Earliest first; on one day a date-only due comes before the timed ones; undated last (0 between two). */
export function compareDue(a: Due, b: Due): number {
  if (a.dueDate === null || b.dueDate === null) return (a.dueDate === null ? 1 : 0) - (b.dueDate === null ? 1 : 0);
  if (a.dueDate !== b.dueDate) return a.dueDate < b.dueDate ? -1 : 1;
  if (a.dueTime === b.dueTime) return 0;
  if (a.dueTime === null || b.dueTime === null) return a.dueTime === null ? -1 : 1;
  return a.dueTime < b.dueTime ? -1 : 1;
}
