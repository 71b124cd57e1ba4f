import { useState } from "preact/hooks";
import { meApi } from "../../api/me.ts";
import { FormCard } from "../../components/form-card.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";

type Errors = { current?: string; next?: string; confirm?: string };

/**
 * Changing the password; the server signs out every other session and ends the apps' tokens. An
 * account made through a linked provider has none yet and sets its first one here.
 */
export function PasswordSection({ hasPassword, onSet }: { hasPassword: boolean; onSet: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const found: Errors = {};
    if (hasPassword && !current) found.current = "Enter your current password.";
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
      toast(`Password ${hasPassword ? "changed" : "set"}. ${sessions} signed out, and apps you authorized must sign in again.`, "success");
      onSet();
    } catch (e) {
      const text = (e as Error).message;
      setErrors(/current/i.test(text) ? { current: text } : { next: text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard id="password" title="Password" submitLabel={hasPassword ? "Change password" : "Set a password"} busy={busy} onSubmit={() => void save()}>
      {hasPassword ? (
        <TextField label="Current password" type="password" value={current} onValue={setCurrent} autocomplete="current-password" error={errors.current} />
      ) : (
        <p class="muted">Your account has no password: you sign in with a linked account. Set one to sign in without it (within 10 minutes of signing in).</p>
      )}
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
