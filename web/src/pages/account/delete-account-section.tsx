import { useLocation } from "preact-iso";
import { useEffect, useState } from "preact/hooks";
import { appsApi } from "../../api/apps.ts";
import { meApi } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { Choices } from "../../components/choices.tsx";
import { TextField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";
import { currentUser } from "../../lib/session.ts";
import { toast } from "../../lib/toasts.ts";
import { useLoad } from "../../lib/use-load.ts";

type Way = "password" | "code";

/**
 * Deleting one's own account, confirmed by the password or a second factor (a code from the
 * authenticator app, or a backup code). An account with neither (made through a linked provider,
 * signing in with it or a passkey) confirms with a sign-in of the last 10 minutes.
 */
export function DeleteAccountSection({ hasPassword }: { hasPassword: boolean }) {
  const { route } = useLocation();
  const totp = useLoad(() => meApi.totpStatus());
  const apps = useLoad(() => appsApi.list());
  const [open, setOpen] = useState(false);
  const [way, setWay] = useState<Way>("password");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const hasTotp = totp.data?.enabled ?? false;
  const ways: Way[] = [...(hasPassword ? (["password"] as const) : []), ...(hasTotp ? (["code"] as const) : [])];
  useEffect(() => {
    if (!open) return;
    setValue("");
    setError(null);
    setWay(ways[0] ?? "password");
  }, [open]);

  const confirm = async () => {
    if (ways.length > 0 && !value) throw new Error(way === "password" ? "Enter your password." : "Enter a code.");
    await meApi.deleteAccount(ways.length === 0 ? {} : way === "password" ? { password: value } : { code: value.trim() });
    toast("Your account was deleted.", "success");
    route("/", true);
    currentUser.value = null;
  };
  const appCount = apps.data?.length ?? 0;

  return (
    <Card id="delete-account" title="Delete your account">
      <div class="danger-zone">
        <h3>Danger zone</h3>
        <p class="muted">
          Every session, token and app sign-in ends, and your profile, passkeys, authenticator, linked accounts, keys, domains and team memberships are removed
          {appCount > 0 ? `, with the ${appCount === 1 ? "app" : `${appCount} apps`} you registered` : ""}. What you wrote in your teams stays with them, shown
          as by a deleted user. This cannot be undone. A team you alone own needs another owner first.
        </p>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete account…
        </Button>
      </div>
      <FormDialog
        open={open}
        title="Delete your account?"
        confirmLabel="Delete my account"
        danger
        onSubmit={confirm}
        onError={setError}
        onClose={() => setOpen(false)}
      >
        <p>
          <strong>{currentUser.value?.username}</strong> is deleted for good, and you are signed out everywhere. This cannot be undone.
        </p>
        {ways.length > 1 ? (
          <Choices
            legend="Confirm with"
            name="delete-proof"
            options={ways}
            value={way}
            onValue={(w) => {
              setWay(w);
              setValue("");
            }}
            describe={(w) =>
              w === "password"
                ? { title: "Your password", help: "The one you sign in with." }
                : { title: "A code", help: "From your authenticator app, or one of your backup codes." }
            }
          />
        ) : null}
        {ways.length === 0 ? (
          <>
            <p>Your account has no password or authenticator app: deleting it needs a sign-in from the last 10 minutes.</p>
            {error ? (
              <p class="form-error" role="alert">
                {error}
              </p>
            ) : null}
          </>
        ) : (
          <TextField
            label={way === "password" ? "Password" : "Authenticator or backup code"}
            type={way === "password" ? "password" : "text"}
            value={value}
            onValue={setValue}
            autocomplete={way === "password" ? "current-password" : "one-time-code"}
            error={error}
          />
        )}
      </FormDialog>
    </Card>
  );
}
