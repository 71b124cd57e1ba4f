import { useState } from "preact/hooks";
import { ApiError } from "../../api/http.ts";
import { meApi, type Passkey } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { formatAgo, formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";
import { browserSupportsWebAuthn, createPasskey, passkeyErrorMessage } from "../../lib/webauthn.ts";
import { RenameDialog } from "../../components/rename-dialog.tsx";
import { AddForm } from "../../components/add-form.tsx";
import { useAddForm } from "../../components/use-add-form.ts";

function guessDeviceName(): string {
  const ua = navigator.userAgent;
  const os = /iPhone|iPad/.test(ua)
    ? "iPhone or iPad"
    : /Android/.test(ua)
      ? "Android"
      : /Mac OS/.test(ua)
        ? "Mac"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `Passkey on ${os}` : "My passkey";
}

/** Passkeys: sign in without a password, or use one as the second step. */
export function PasskeysSection() {
  const list = useLoad(() => meApi.passkeys());
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const form = useAddForm({
    initial: () => ({ name: guessDeviceName() }),
    check: ({ name }) => (name.trim() ? {} : { name: "Name the passkey, so you can tell it apart later." }),
    send: async ({ name }) => {
      const { challenge_id, options } = await meApi.passkeyOptions();
      const response = await createPasskey(options);
      const passkey = await meApi.addPasskey(challenge_id, name.trim(), response);
      toast(`Passkey "${passkey.name}" added.`, "success");
    },
    refusalAt: "name",
    refusalText: (e) => (e instanceof ApiError ? e.message : passkeyErrorMessage(e)),
    done: list.reload,
  });

  const passkeys = list.data ?? [];
  return (
    <Card id="passkeys" title="Passkeys">
      <p class="muted">A passkey signs you in with your device's screen lock or a security key, no password needed.</p>
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {list.data && passkeys.length === 0 ? <p class="empty-inline">No passkeys yet.</p> : null}
      {passkeys.length > 0 ? (
        <ul class="rows" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <li key={p.id} class="row">
              <div class="grow">
                <strong>{p.name}</strong>
                <span class="row-meta">
                  Added {formatTime(p.created_at)} · last used {formatAgo(p.last_used_at)} · {p.backed_up ? "synced" : "this device only"}
                </span>
              </div>
              <Button variant="secondary" onClick={() => setRenaming(p)} aria-label={`Rename ${p.name}`}>
                Rename
              </Button>
              <Button variant="ghost" onClick={() => setDeleting(p)} aria-label={`Delete ${p.name}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <AddForm form={form} submitLabel="Add a passkey" inline disabled={!browserSupportsWebAuthn()}>
        <TextField label="New passkey name" {...form.field("name")} autocomplete="off" />
      </AddForm>
      {!browserSupportsWebAuthn() ? <p class="field-hint">This browser does not support passkeys.</p> : null}
      <RenameDialog
        open={renaming !== null}
        title="Rename passkey"
        label="Passkey name"
        initial={renaming?.name ?? ""}
        onClose={() => setRenaming(null)}
        onSave={async (next) => {
          await meApi.renamePasskey((renaming as Passkey).id, next);
          await list.reload();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete passkey?"
        confirmLabel="Delete passkey"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await meApi.deletePasskey((deleting as Passkey).id);
          toast("Passkey deleted.", "success");
          await list.reload();
        }}
      >
        <p>
          <strong>{deleting?.name}</strong> will no longer sign you in. Remove it from the device's password manager too.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
