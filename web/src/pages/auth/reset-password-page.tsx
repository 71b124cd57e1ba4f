import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi } from "../../api/auth.ts";
import { ApiError } from "../../api/http.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { currentUser, loadSession } from "../../lib/session.ts";

type Errors = { password?: string; confirm?: string; form?: string };

const MIN_PASSWORD = 10;

/**
 * `/reset-password?token=`: the page a reset link opens (an administrator made it, in Admin →
 * Users, or the person asked for it by email: `&forgot=1`, whose second factors stay). A new
 * password, checked as registration checks it; then signed out, with the way to sign in.
 */
export function ResetPasswordPage() {
  const { query } = useLocation();
  const token = query.token ?? "";
  // Only the wording follows it: what the link does is the server's to decide.
  const forgot = query.forgot === "1";
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async () => {
    const found: Errors = {};
    if ([...password].length < MIN_PASSWORD) found.password = `Use at least ${MIN_PASSWORD} characters.`;
    else if (confirm !== password) found.confirm = "The two passwords differ.";
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await authApi.resetPassword(token, password);
      setDone(true);
      // Every session of the account ended, this browser's too if it was theirs.
      if (currentUser.value) await loadSession();
    } catch (e) {
      const message = (e as Error).message;
      const aboutPassword = e instanceof ApiError && e.error === "invalid_request" && /password/i.test(message);
      setErrors(aboutPassword ? { password: message } : { form: message });
    } finally {
      setBusy(false);
    }
  };

  if (done)
    return (
      <div class="narrow">
        <Card
          title="Your new password is set"
          footer={
            <a class="btn btn-primary" href="/login">
              Sign in
            </a>
          }
        >
          <p>Sign in with it now. Every device that was signed in to this account was signed out.</p>
          {forgot ? (
            <p>Your authenticator app and passkeys stay: signing in asks for one as before.</p>
          ) : (
            <p>If the account had an authenticator app, backup codes or passkeys, they were removed: set them up again on your account page.</p>
          )}
        </Card>
      </div>
    );

  if (!token)
    return (
      <div class="narrow">
        <Card title="Reset your password">
          <p class="form-error">This link is incomplete: open the whole link you were given, or ask for a new one.</p>
          <p>
            <a href="/forgot-password">Mail me a new link</a>
          </p>
          <p>
            <a href="/login">Back to sign in</a>
          </p>
        </Card>
      </div>
    );

  return (
    <div class="narrow">
      <Form onSubmit={() => void submit()}>
        <Card
          title="Choose a new password"
          footer={
            <Button type="submit" busy={busy}>
              Set password
            </Button>
          }
        >
          {forgot ? (
            <p class="muted">
              This link works once, within 15 minutes of being mailed. Setting a password signs the account out everywhere; its authenticator app and passkeys
              stay, and signing in still asks for one.
            </p>
          ) : (
            <p class="muted">
              This link works once, within 24 hours of being made. Setting a password signs the account out everywhere and removes its authenticator app, backup
              codes and passkeys, so whoever had them no longer gets in.
            </p>
          )}
          <TextField
            label="New password"
            type="password"
            value={password}
            onValue={(v) => {
              setPassword(v);
              setErrors({});
            }}
            autocomplete="new-password"
            error={errors.password}
            hint={`At least ${MIN_PASSWORD} characters.`}
          />
          <TextField
            label="Confirm new password"
            type="password"
            value={confirm}
            onValue={(v) => {
              setConfirm(v);
              setErrors({});
            }}
            autocomplete="new-password"
            error={errors.confirm}
          />
          <FormError message={errors.form} />
          {errors.form ? (
            <p>
              <a href="/forgot-password">Mail me a new link</a>
            </p>
          ) : null}
        </Card>
      </Form>
      <p class="muted center">
        Remembered it? <a href="/login">Sign in</a>
      </p>
    </div>
  );
}
