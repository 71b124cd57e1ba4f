import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi } from "../../api/auth.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { continueTo, currentUser, safeReturnTo, signedIn } from "../../lib/session.ts";
import { AccountFields } from "./account-fields.tsx";
import { type AccountErrors, type AccountForm, accountErrorFrom, EMPTY_ACCOUNT, validateAccount } from "./account-form.ts";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";

/**
 * Creating an account: open, or with an invitation code (the invite link fills it in). An
 * invitation for one address fills in that email and locks it; the server admits no other.
 */
export function RegisterPage() {
  const { query, route } = useLocation();
  const [form, setForm] = useState<AccountForm>(EMPTY_ACCOUNT);
  const [invite, setInvite] = useState(query.invite ?? "");
  const [errors, setErrors] = useState<AccountErrors>({});
  const [busy, setBusy] = useState(false);
  const [lockedEmail, setLockedEmail] = useState<string | null>(null);

  useEffect(() => {
    if (!query.invite) return;
    authApi.registration(query.invite).then(
      (info) => {
        if (info.invite === null) setErrors((now) => ({ ...now, invite: "This invitation cannot be used: it was used or it expired. Ask for a new one." }));
        else if (info.invite.email !== null) {
          const email = info.invite.email;
          setLockedEmail(email);
          setForm((now) => ({ ...now, email }));
        }
      },
      () => {}, // the form still works; registration says what is wrong
    );
  }, [query.invite]);

  const set = (key: keyof AccountForm, value: string) => {
    if (key === "email" && lockedEmail !== null) return;
    setForm({ ...form, [key]: value });
    setErrors({ ...errors, [key]: undefined, form: undefined });
  };

  const submit = async () => {
    const found = validateAccount(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { user } = await authApi.register({
        username: form.username.trim().toLowerCase(),
        email: form.email.trim(),
        password: form.password,
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        ...(invite.trim() ? { invite: invite.trim() } : {}),
      });
      signedIn(user);
      toast(`Welcome, ${user.name || user.username}! Your account is ready.`, "success");
      continueTo(safeReturnTo(query.return_to) ?? "/account", route);
    } catch (e) {
      setErrors(accountErrorFrom(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="narrow">
      <Form onSubmit={() => void submit()}>
        <Card
          title="Create your account"
          footer={
            <Button type="submit" busy={busy}>
              Create account
            </Button>
          }
        >
          {currentUser.value ? (
            <p class="notice">You are signed in as {currentUser.value.username}. Creating another account signs you in as the new one.</p>
          ) : null}
          <AccountFields form={form} errors={errors} set={set} emailLocked={lockedEmail !== null} />
          <TextField
            label="Invitation code"
            value={invite}
            onValue={(v) => {
              setInvite(v);
              setErrors({ ...errors, invite: undefined });
              // Another code: the address is no longer the link's to decide.
              setLockedEmail(null);
            }}
            autocomplete="off"
            error={errors.invite}
            hint="Needed unless this site has open registration."
          />
          <FormError message={errors.form} />
        </Card>
      </Form>
      <p class="muted center">
        Already have an account? <a href="/login">Sign in</a>
      </p>
    </div>
  );
}
