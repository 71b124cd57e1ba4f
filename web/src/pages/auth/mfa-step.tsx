import { useId, useLayoutEffect, useState } from "preact/hooks";
import { authApi, type SecondFactorMethod, type SignedIn } from "../../api/auth.ts";
import { ApiError } from "../../api/http.ts";
import { Button } from "../../components/button.tsx";
import { Choices } from "../../components/choices.tsx";
import { TextField } from "../../components/field.tsx";
import { getPasskey, passkeyErrorMessage } from "../../lib/webauthn.ts";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";

const LABELS: Record<SecondFactorMethod, { title: string; help: string }> = {
  totp: { title: "Authenticator app", help: "Enter the 6-digit code your app shows now." },
  passkey: { title: "Passkey", help: "Use a passkey saved on this device or a security key." },
  backup_code: { title: "Backup code", help: "Each backup code works once." },
};

type Props = { token: string; methods: SecondFactorMethod[]; onDone: (answer: SignedIn) => void; onCancel: () => void };

/** The second step of a password sign-in: one of the factors the account has enrolled. */
export function MfaStep({ token, methods, onDone, onCancel }: Props) {
  const [method, setMethod] = useState<SecondFactorMethod>(methods[0] ?? "totp");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formId = useId();
  // The step takes the focus when it appears (its code field, or the passkey button), not on a change of method.
  useLayoutEffect(() => document.getElementById(formId)?.querySelector<HTMLElement>("input:not([type=radio]), button[type=submit]")?.focus(), []);

  const run = async (work: () => Promise<SignedIn>) => {
    setBusy(true);
    setError(null);
    try {
      onDone(await work());
    } catch (e) {
      setError(e instanceof ApiError ? e.message : passkeyErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const submit = () => {
    if (method === "passkey")
      return run(async () => {
        const { challenge_id, options } = await authApi.mfaPasskeyOptions(token);
        const response = await getPasskey(options);
        return authApi.loginMfa(token, { passkey: { challenge_id, response } });
      });
    const value = code.trim();
    if (!value) return setError(method === "totp" ? "Enter the code from your app." : "Enter one of your backup codes.");
    return run(() => authApi.loginMfa(token, method === "totp" ? { code: value.replace(/\s/g, "") } : { backup_code: value }));
  };

  return (
    <Form id={formId} onSubmit={() => void submit()}>
      <p>Your account has two-factor authentication. Confirm it is you.</p>
      {methods.length > 1 ? (
        <Choices
          legend="Verify with"
          name="mfa-method"
          options={methods}
          value={method}
          describe={(m) => LABELS[m]}
          onValue={(m) => {
            setMethod(m);
            setCode("");
            setError(null);
          }}
        />
      ) : (
        <p class="muted">{LABELS[method].help}</p>
      )}
      {method === "totp" ? (
        <TextField label="Authentication code" value={code} onValue={setCode} autocomplete="one-time-code" inputMode="numeric" error={error} />
      ) : null}
      {method === "backup_code" ? <TextField label="Backup code" value={code} onValue={setCode} autocomplete="one-time-code" error={error} /> : null}
      <FormError message={method === "passkey" && error ? error : null} />
      <div class="form-actions">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Start over
        </Button>
        <Button type="submit" busy={busy}>
          {method === "passkey" ? "Use passkey" : "Verify"}
        </Button>
      </div>
    </Form>
  );
}
