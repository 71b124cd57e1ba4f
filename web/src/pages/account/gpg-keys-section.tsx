import { useState } from "preact/hooks";
import { type GpgKey, identityExtrasApi } from "../../api/identity-extras.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { Field } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { formatTime } from "../../lib/format.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";

/** OpenPGP public keys: apps that ask see them (the `gpg_keys` claim); user ids with your verified email are marked. */
export function GpgKeysSection() {
  const list = useLoad(() => identityExtrasApi.gpgKeys());
  const { busy, run } = useAction();
  const [armored, setArmored] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    setError(null);
    try {
      await identityExtrasApi.addGpgKey(armored);
      setArmored("");
      await list.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
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
      <Form onSubmit={() => void add()}>
        <Field label="Public key" hint="The output of gpg --armor --export <your key id>. Never your private key.">
          {({ id, describedBy }) => (
            <textarea
              id={id}
              class="input mono"
              rows={6}
              value={armored}
              aria-describedby={describedBy}
              placeholder="-----BEGIN PGP PUBLIC KEY BLOCK-----"
              onInput={(e) => setArmored(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormError message={error} />
        <div class="form-actions start">
          <Button type="submit" disabled={armored.trim() === ""}>
            Add key
          </Button>
        </div>
      </Form>
    </Card>
  );
}
