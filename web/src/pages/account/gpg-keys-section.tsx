import { type GpgKey, identityExtrasApi } from "../../api/identity-extras.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { Field } from "../../components/field.tsx";
import { AddForm } from "../../components/add-form.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { formatTime } from "../../lib/format.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";

/** OpenPGP public keys: apps that ask see them (the `gpg_keys` claim); user ids with your verified email are marked. */
export function GpgKeysSection() {
  const list = useLoad(() => identityExtrasApi.gpgKeys());
  const { busy, run } = useAction();
  const form = useAddForm({ initial: () => ({ armored: "" }), send: ({ armored }) => identityExtrasApi.addGpgKey(armored), done: list.reload });
  const { armored } = form.values;
  const remove = (k: GpgKey) =>
    run(`remove:${k.id}`, async () => {
      await identityExtrasApi.removeGpgKey(k.id);
      await list.reload();
    });
  return (
    <Card id="gpg-keys" title="GPG keys">
      {list.error ? <p class="form-error">{list.error}</p> : null}
      <ul class="rows" aria-label="Your GPG keys">
        {(list.data ?? []).map((k) => (
          <li key={k.id} class="row">
            <div class="grow">
              <strong class="mono">{k.key_id}</strong> <span class="row-meta">{k.algorithm}</span>
              <span class="row-meta mono">{k.fingerprint}</span>
              <span class="row-meta">
                {k.user_ids.map((u) => (
                  <span key={u.uid}>
                    {u.uid} {u.verified ? <span class="badge badge-success">Verified email</span> : null}{" "}
                  </span>
                ))}
                {k.expires_at ? ` · ${k.expires_at < Date.now() ? "expired" : "expires"} ${formatTime(k.expires_at)}` : " · never expires"}
              </span>
            </div>
            <Button variant="danger" busy={busy === `remove:${k.id}`} onClick={() => void remove(k)} aria-label={`Remove key ${k.key_id}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {list.data && list.data.length === 0 ? <p class="empty-inline">No key yet.</p> : null}
      <AddForm form={form} submitLabel="Add key" disabled={armored.trim() === ""}>
        <Field label="Public key" hint="The output of gpg --armor --export <your key id>. Never your private key.">
          {({ id, describedBy }) => (
            <textarea
              id={id}
              class="input mono"
              rows={6}
              value={armored}
              aria-describedby={describedBy}
              placeholder="-----BEGIN PGP PUBLIC KEY BLOCK-----"
              onInput={(e) => form.set("armored", e.currentTarget.value)}
            />
          )}
        </Field>
      </AddForm>
    </Card>
  );
}
