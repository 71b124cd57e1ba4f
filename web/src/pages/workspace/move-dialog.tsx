import { useState } from "preact/hooks";
import type { Todo, TodoSet } from "../../api/workspace.ts";
import { SelectField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";
import { FormError } from "../../components/form-error.tsx";

type Props = { todo: Todo; sets: TodoSet[]; onClose: () => void; onMove: (targetSetId: string, insertAt: "top" | "bottom") => Promise<unknown> };

/** Moves a todo with its sub-todos to another set, as a top-level todo (spec 2 section 4.2 move). */
export function MoveDialog({ todo, sets, onClose, onMove }: Props) {
  const [target, setTarget] = useState(sets[0]?.id ?? "");
  const [insertAt, setInsertAt] = useState<"top" | "bottom">("bottom");
  const [error, setError] = useState<string | null>(null);
  return (
    <FormDialog open title={`Move “${todo.title}”`} confirmLabel="Move" onClose={onClose} onError={setError} onSubmit={() => onMove(target, insertAt)}>
      {sets.length === 0 ? (
        <p class="empty-inline">There is no other set to move it to.</p>
      ) : (
        <>
          <SelectField label="To set" value={target} options={sets.map((s) => ({ value: s.id, label: s.name }))} onValue={setTarget} />
          <SelectField
            label="Place it"
            value={insertAt}
            options={[
              { value: "bottom", label: "At the bottom" },
              { value: "top", label: "At the top" },
            ]}
            onValue={(v) => setInsertAt(v as "top" | "bottom")}
          />
        </>
      )}
      <FormError message={error} />
    </FormDialog>
  );
}
