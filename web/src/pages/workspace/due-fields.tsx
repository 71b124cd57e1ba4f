import { useId } from "preact/hooks";
import type { Due } from "./model/due.ts";

export const NO_DUE: Due = { dueDate: null, dueTime: null };

type Props = {
  /** What the fields are for, for screen readers ("Due date of Rent"). */
  label: string;
  value: Due;
  onChange: (due: Due) => void;
  /** Enter or Escape in either field: the editing is over. */
  onDone?: () => void;
};

/** A due date and an optional time (the set's time zone); emptying the date clears both. */
export function DueFields({ label, value, onChange, onDone }: Props) {
  const id = useId();
  const onKeyDown = (e: KeyboardEvent) => {
    if (onDone && (e.key === "Enter" || e.key === "Escape")) {
      e.preventDefault();
      onDone();
    }
  };
  return (
    <fieldset class="ws-due-fields">
      <legend class="visually-hidden">{label}</legend>
      <label for={`${id}-date`}>Due</label>
      <input
        id={`${id}-date`}
        type="date"
        class="input input-compact"
        value={value.dueDate ?? ""}
        onKeyDown={onKeyDown}
        onChange={(e) => {
          const date = (e.currentTarget as HTMLInputElement).value;
          onChange(date ? { dueDate: date, dueTime: value.dueTime } : NO_DUE);
        }}
      />
      <label class="visually-hidden" for={`${id}-time`}>
        Due time (optional)
      </label>
      <input
        id={`${id}-time`}
        type="time"
        class="input input-compact"
        value={value.dueTime ?? ""}
        disabled={value.dueDate === null}
        onKeyDown={onKeyDown}
        onChange={(e) => onChange({ dueDate: value.dueDate, dueTime: (e.currentTarget as HTMLInputElement).value || null })}
      />
      {value.dueDate !== null ? (
        <button type="button" class="ws-action" onClick={() => onChange(NO_DUE)}>
          No due date
        </button>
      ) : null}
    </fieldset>
  );
}
