import { useEffect, useState } from "preact/hooks";
import { type Reauth, reauthFrom } from "../../api/me.ts";
import { TextField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";

type Props = {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: (proof: Reauth) => Promise<unknown>;
  onClose: () => void;
};

/** Confirms a sensitive change with a current authenticator code or the password. */
export function ReauthDialog({ open, onConfirm, ...rest }: Props) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setValue("");
      setError(null);
    }
  }, [open]);
  const confirm = async () => {
    if (!value) throw new Error("Enter a code or your password.");
    await onConfirm(reauthFrom(value));
  };
  return (
    <FormDialog {...rest} open={open} onSubmit={confirm} onError={setError}>
      <TextField
        label="Authenticator code or password"
        type="password"
        value={value}
        onValue={setValue}
        autocomplete="one-time-code"
        error={error}
        hint="A 6-digit code from your app, or your account password."
      />
    </FormDialog>
  );
}
