import { type Due, isDueDate, isDueTime } from "../../contract/due-dates.ts";
import * as E from "./todos.errors.ts";

/** A due as create and PATCH take it: absent keeps, null clears. */
export type DueInput = { dueDate?: string | null; dueTime?: string | null };

export const NO_DUE: Due = { dueDate: null, dueTime: null };

export const touchesDue = (input: DueInput): boolean => input.dueDate !== undefined || input.dueTime !== undefined;

/** The due once `input` applies to `current`; clearing the date clears the time with it. */
export function nextDue(current: Due, input: DueInput): Due {
  if (input.dueDate != null && !isDueDate(input.dueDate)) throw E.invalidDueDate();
  if (input.dueTime != null && !isDueTime(input.dueTime)) throw E.invalidDueTime();
  const dueDate = input.dueDate === undefined ? current.dueDate : input.dueDate;
  const dueTime = input.dueTime !== undefined ? input.dueTime : dueDate === null ? null : current.dueTime;
  if (dueDate === null && dueTime !== null) throw E.dueTimeWithoutDate();
  return { dueDate, dueTime };
}
