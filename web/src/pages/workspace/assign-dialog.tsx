import { useState } from "preact/hooks";
import type { Member, Todo } from "../../api/workspace.ts";
import { FormDialog } from "../../components/form-dialog.tsx";
import { FormError } from "../../components/form-error.tsx";

type Props = { todo: Todo; members: Member[]; onClose: () => void; onSave: (userIds: string[]) => Promise<boolean> };

/** Picks the full list of assignees (spec 2 section 4.2 PUT assignees). */
export function AssignDialog({ todo, members, onClose, onSave }: Props) {
  const [chosen, setChosen] = useState(new Set(todo.assignees.map((a) => a.userId)));
  const [error, setError] = useState<string | null>(null);
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  return (
    <FormDialog
      open
      title={`Assign “${todo.title}”`}
      confirmLabel="Save"
      onClose={onClose}
      onError={setError}
      onSubmit={async () => {
        if (!(await onSave([...chosen]))) throw new Error("The assignees were not saved.");
      }}
    >
      {members.length === 0 ? <p class="empty-inline">No members known yet.</p> : null}
      <fieldset class="choices">
        <legend>Members</legend>
        {members.map((m) => (
          <label key={m.userId} class="checkbox">
            <input type="checkbox" checked={chosen.has(m.userId)} onChange={() => toggle(m.userId)} />
            <span>
              {m.name || m.username || m.userId}
              {m.username && m.name ? <span class="muted"> @{m.username}</span> : null}
            </span>
          </label>
        ))}
      </fieldset>
      <FormError message={error} />
    </FormDialog>
  );
}
