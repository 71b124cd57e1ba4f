import { useState } from "preact/hooks";
import { type AccessToken, meApi } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { toast } from "../../lib/toasts.ts";
import { formatAgo, formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";
import { TokenForm } from "./token-form.tsx";

/** Personal access tokens for scripts and tools; each secret is shown once. */
export function TokensSection({ isAdmin }: { isAdmin: boolean }) {
  const list = useLoad(() => meApi.tokens());
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  const tokens = list.data ?? [];

  return (
    <Card id="tokens" title="Personal access tokens">
      <p class="muted">
        A token lets a script call the API as you, limited to the scopes you choose. Send it as <code>Authorization: Bearer …</code>.
      </p>
      {secret ? (
        <div class="notice notice-success">
          <CopyField label="New token" value={secret} hint="Copy it now: it will not be shown again." />
          <Button variant="secondary" onClick={() => setSecret(null)}>
            Done
          </Button>
        </div>
      ) : null}
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {list.data && tokens.length === 0 ? <p class="empty-inline">No tokens yet.</p> : null}
      {tokens.length > 0 ? (
        <ul class="rows" aria-label="Your tokens">
          {tokens.map((t) => (
            <li key={t.id} class="row">
              <div class="grow">
                <strong>{t.name}</strong> <code class="muted">{t.prefix}…</code>
                <span class="row-meta">
                  Created {formatTime(t.created_at)} · {t.expires_at ? `expires ${formatTime(t.expires_at)}` : "never expires"} · last used{" "}
                  {formatAgo(t.last_used_at)}
                </span>
                <span class="tags">
                  {t.scopes.map((s) => (
                    <span key={s} class="badge">
                      {s}
                    </span>
                  ))}
                </span>
              </div>
              <Button variant="ghost" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <TokenForm
        isAdmin={isAdmin}
        onCreated={(value) => {
          setSecret(value);
          void list.reload();
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke token?"
        confirmLabel="Revoke token"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await meApi.revokeToken((revoking as AccessToken).id);
          toast("Token revoked.", "success");
          await list.reload();
        }}
      >
        <p>
          Anything using <strong>{revoking?.name}</strong> stops working at once.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
