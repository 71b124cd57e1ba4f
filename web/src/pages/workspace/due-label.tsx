import { useEffect, useState } from "preact/hooks";
import { type Due, describeDue, type LocalNow, localNow } from "./model/due.ts";

/** "Now" in `timeZone`, kept current (a timed due turns overdue on its minute, a day at midnight). */
export function useLocalNow(timeZone: string): LocalNow {
  const read = () => {
    const now = localNow(timeZone);
    return `${now.date} ${now.time}`;
  };
  const [stamp, setStamp] = useState(read);
  useEffect(() => {
    setStamp(read());
    const timer = setInterval(() => setStamp(read()), 20_000);
    return () => clearInterval(timer);
  }, [timeZone]);
  const [date = "", time = ""] = stamp.split(" ");
  return { date, time };
}

/** A todo's due on its row: relative when near; overdue says so in words, not only in colour. */
export function DueLabel({ due, now, id }: { due: Due; now: LocalNow; id?: string }) {
  const shown = describeDue(due, now);
  if (!shown) return null;
  return (
    <span id={id} class={`ws-due${shown.overdue ? " ws-due-overdue" : ""}`}>
      {shown.overdue ? <strong>Overdue:</strong> : <span class="visually-hidden">Due</span>}{" "}
      <time dateTime={due.dueTime === null ? (due.dueDate ?? "") : `${due.dueDate}T${due.dueTime}`}>{shown.text}</time>
    </span>
  );
}
