import { useEffect, useState } from "preact/hooks";
import { TextField } from "./field.tsx";
import { FormDialog } from "./form-dialog.tsx";

type Props = { open: boolean; title: string; label: string; initial: string; onSave: (name: string) => Promise<unknown>; onClose: () => void };

/** A dialog with one name field (passkeys, groups, teams). */
export function RenameDialog({ open, title, label, initial, onSave, onClose }: Props) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setName(initial);
      setError(null);
    }
  }, [open, initial]);
  const save = async () => {
    if (!name.trim()) throw new Error("Enter a name.");
    await onSave(name.trim());
  };
  return (
    <FormDialog open={open} title={title} confirmLabel="Save" onSubmit={save} onError={setError} onClose={onClose}>
      <TextField label={label} value={name} onValue={setName} autocomplete="off" error={error} />
    </FormDialog>
  );
}
