import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi } from "../../api/auth.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useSiteMail } from "../../lib/use-site-mail.ts";

/**
 * `/forgot-password` ("Forgot password?" on the sign-in page): mails a link for choosing a new
 * password. The page says the same whether or not an account has that name, as the server does.
 */
export function ForgotPasswordPage() {
  const { query } = useLocation();
  const mail = useSiteMail();
  const [login, setLogin] = useState(query.login ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async () => {
    if (!login.trim()) return setError("Enter your username or email.");
    setBusy(true);
    setError(null);
    try {
      await authApi.forgotPassword(login.trim());
      setSent(true);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <p class="muted center">
      Remembered it? <a href="/login">Sign in</a>
    </p>
  );

  if (mail === false)
    return (
      <div class="narrow">
        <Card title="Reset your password">
          <p>This site does not send email yet, so it cannot mail you a link.</p>
          <p>Ask an administrator for a reset link (Admin → Users → Reset link), or to set up mail.</p>
        </Card>
        {back}
      </div>
    );

  if (sent)
    return (
      <div class="narrow">
        <Card title="Check your email">
          <p>
            If an account here has the username or email <strong>{login.trim()}</strong>, a link to choose a new password is on its way to that account's
            address. It works once, within 15 minutes.
          </p>
          <p class="muted">Nothing after a few minutes? Look in your spam folder, check what you typed, or try again a little later.</p>
        </Card>
        {back}
      </div>
    );

  return (
    <div class="narrow">
      <Form onSubmit={() => void submit()}>
        <Card
          title="Reset your password"
          footer={
            <Button type="submit" busy={busy}>
              Send reset link
            </Button>
          }
        >
          <p class="muted">
            Enter your username or email: we mail a link to your account's address. Choosing a new password signs you out everywhere; your authenticator app and
            passkeys stay, and signing in still asks for one.
          </p>
          <TextField label="Username or email" value={login} onValue={setLogin} autocomplete="username" autoFocus />
          <FormError message={error} />
        </Card>
      </Form>
      {back}
    </div>
  );
}
