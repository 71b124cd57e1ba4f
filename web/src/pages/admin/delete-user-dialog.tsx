import { useEffect, useState } from "preact/hooks";
import { type AdminUser, adminApi } from "../../api/admin.ts";
import { TextField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";

type Props = { user: AdminUser | null; onClose: () => void; onDeleted: (user: AdminUser) => void };

/**
 * Deleting an account for good, confirmed by typing its username (as GitHub and GitLab ask): a
 * slip of the mouse on the wrong row cannot do it. The server's refusal (the last administrator,
 * teams the person alone owns) shows under the field and the dialog stays open.
 */
export function DeleteUserDialog({ user, onClose, onDeleted }: Props) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setTyped("");
    setError(null);
  }, [user?.id]);
  const confirm = async () => {
    if (!user) return;
    if (typed.trim() !== user.username) throw new Error(`Type ${user.username} to confirm.`);
    await adminApi.deleteUser(user.id);
    onDeleted(user);
  };
  return (
    <FormDialog
      open={user !== null}
      title={`Delete ${user?.username ?? ""}?`}
      confirmLabel="Delete account"
      danger
      onSubmit={confirm}
      onError={setError}
      onClose={onClose}
    >
      <p>
        This deletes the account for good: every session, token and app sign-in of <strong>{user?.username}</strong> ends, and their passkeys, authenticator,
        linked accounts, keys, domains, memberships and the apps they registered are removed. Their todos and comments stay with their teams, shown as by a
        deleted user; the audit log keeps what they did, without their name or email. This cannot be undone.
      </p>
      <TextField
        label={`Type ${user?.username ?? ""} to confirm`}
        value={typed}
        onValue={setTyped}
        autocomplete="off"
        error={error}
        hint="To keep an account but stop its access, disable it instead."
      />
    </FormDialog>
  );
}
