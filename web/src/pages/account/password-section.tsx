import { useState } from "preact/hooks";
import { meApi } from "../../api/me.ts";
import { FormCard } from "../../components/form-card.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";

type Errors = { current?: string; next?: string; confirm?: string };

/** Changing the password; the server signs out every other session and ends the apps' tokens. */
export function PasswordSection() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const found: Errors = {};
    if (!current) found.current = "Enter your current password.";
    if (next.length < 10) found.next = "Use at least 10 characters.";
    else if (confirm !== next) found.confirm = "The two new passwords differ.";
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { other_sessions_ended: ended } = await meApi.changePassword(current, next);
      setCurrent("");
      setNext("");
      setConfirm("");
      const sessions = ended === 1 ? "1 other session was" : `${ended} other sessions were`;
      toast(`Password changed. ${sessions} signed out, and apps you authorized must sign in again.`, "success");
    } catch (e) {
      const text = (e as Error).message;
      setErrors(/current/i.test(text) ? { current: text } : { next: text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard id="password" title="Password" submitLabel="Change password" busy={busy} onSubmit={() => void save()}>
      <TextField label="Current password" type="password" value={current} onValue={setCurrent} autocomplete="current-password" error={errors.current} />
      <TextField
        label="New password"
        type="password"
        value={next}
        onValue={setNext}
        autocomplete="new-password"
        error={errors.next}
        hint="At least 10 characters."
      />
      <TextField label="Repeat the new password" type="password" value={confirm} onValue={setConfirm} autocomplete="new-password" error={errors.confirm} />
    </FormCard>
  );
}
