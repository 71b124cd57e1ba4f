import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi } from "../../api/auth.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { FormError } from "../../components/form-error.tsx";
import { currentUser, loadSession } from "../../lib/session.ts";

/**
 * `/verify-email?token=`: the page the mailed verification link opens. Confirming takes a click,
 * so a mail scanner that opens links does not spend it.
 */
export function VerifyEmailPage() {
  const { query } = useLocation();
  const token = query.token ?? "";
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await authApi.confirmEmail(token);
      setDone(true);
      // The account page then shows the address as verified.
      if (currentUser.value) await loadSession();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const next = (
    <a class="btn btn-primary" href={currentUser.value ? "/account" : "/login"}>
      {currentUser.value ? "Back to your account" : "Sign in"}
    </a>
  );

  if (done)
    return (
      <div class="narrow">
        <Card title="Your email address is verified" footer={next}>
          <p>Thank you. Apps you sign in to with this account can now rely on the address.</p>
        </Card>
      </div>
    );

  if (!token)
    return (
      <div class="narrow">
        <Card title="Confirm your email address">
          <p class="form-error">This link is incomplete: open the whole link from the email, or ask for a new one on your account page.</p>
        </Card>
      </div>
    );

  return (
    <div class="narrow">
      <Card
        title="Confirm your email address"
        footer={
          <Button busy={busy} onClick={() => void confirm()}>
            Confirm my address
          </Button>
        }
      >
        <p>Confirm that the address this link was mailed to is yours. The link works once, within 24 hours.</p>
        <FormError message={error} />
      </Card>
    </div>
  );
}
