import { useEffect, useState } from "preact/hooks";
import { type AdminUser, adminApi } from "../../api/admin.ts";
import { Button } from "../../components/button.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { FormError } from "../../components/form-error.tsx";
import { formatTime } from "../../lib/format.ts";
import { useSiteMail } from "../../lib/use-site-mail.ts";

type Props = { user: AdminUser | null; onClose: () => void };

/**
 * A password reset link for someone locked out, shown to copy as invitations are (and mailed to
 * them when the site sends mail): the person opens it and sets a new password, without anyone at
 * the server's shell. Making one asks first, since using it removes the account's second factors
 * and signs it out everywhere.
 */
export function ResetLinkDialog({ user, onClose }: Props) {
  // With mail set up, the link is also mailed to the person (issue 44).
  const mail = useSiteMail();
  const [link, setLink] = useState<{ url: string; expires_at: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setLink(null);
    setError(null);
  }, [user?.id]);

  const make = async () => {
    if (!user) return;
    setBusy(true);
    setError(null);
    try {
      setLink(await adminApi.createResetLink(user.id));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const name = user?.username ?? "";
  return (
    <Dialog
      open={user !== null}
      title={`Reset link for ${name}`}
      onClose={onClose}
      actions={
        link ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button busy={busy} onClick={() => void make()}>
              Make link
            </Button>
          </>
        )
      }
    >
      {link ? (
        <CopyField
          label="Reset link"
          value={link.url}
          hint={`${mail ? `It was also emailed to ${user?.email}; you may send it yourself too.` : `Send it to ${name} yourself.`} It works once, until ${formatTime(link.expires_at)} (24 hours), and is not shown again.`}
        />
      ) : (
        <>
          <p>
            A link with which <strong>{name}</strong> chooses a new password. It works once, for 24 hours; a newer link replaces it.
          </p>
          <p>
            {mail
              ? `It is shown here to copy and also emailed to ${user?.email}.`
              : "It is shown here to copy and send yourself: this site does not send email (an administrator sets up mail under Admin → Mail)."}
          </p>
          <p>
            When it is used, every session and token of the account ends, and its authenticator app, backup codes and passkeys are removed: for someone who lost
            them, or whose account someone else may hold. Nothing changes until then.
          </p>
          <FormError message={error} />
        </>
      )}
    </Dialog>
  );
}
