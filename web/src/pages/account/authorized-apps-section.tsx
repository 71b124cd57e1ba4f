import { useState } from "preact/hooks";
import { type Consent, consentsApi } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { toast } from "../../lib/toasts.ts";
import { formatTime } from "../../lib/format.ts";
import { scopeSentence } from "../../lib/scope-text.ts";
import { useLoad } from "../../lib/use-load.ts";

/** Apps the user allowed to use the account, with what they may do, and a way to take it back. */
export function AuthorizedAppsSection() {
  const list = useLoad(() => consentsApi.list());
  const [revoking, setRevoking] = useState<Consent | null>(null);
  const consents = list.data ?? [];
  return (
    <Card id="authorized-apps" title="Authorized apps">
      <p class="muted">Apps you allowed to sign you in and act for you. Revoking one signs it out at once; it asks again next time.</p>
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {!list.data && !list.error ? <p class="muted">Loading…</p> : null}
      {list.data && consents.length === 0 ? <p class="empty-inline">No apps have access to your account.</p> : null}
      {consents.length > 0 ? (
        <ul class="rows" aria-label="Authorized apps">
          {consents.map((c) => (
            <li key={c.client_id} class="row">
              <div class="grow">
                <strong>{c.name}</strong> {c.is_verified ? <span class="badge badge-success">Verified</span> : <span class="badge">Unverified</span>}
                <span class="row-meta">
                  Allowed {formatTime(c.created_at)}
                  {c.updated_at !== c.created_at ? ` · widened ${formatTime(c.updated_at)}` : ""}
                </span>
                <ul class="tags" aria-label={`Scopes of ${c.name}`}>
                  {c.scopes.map((s) => (
                    <li key={s} class="badge" title={scopeSentence(s)}>
                      {s}
                    </li>
                  ))}
                </ul>
              </div>
              <Button variant="secondary" onClick={() => setRevoking(c)} aria-label={`Revoke ${c.name}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? "app"}?`}
        confirmLabel="Revoke access"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await consentsApi.revoke((revoking as Consent).client_id);
          toast(`${(revoking as Consent).name} no longer has access.`, "success");
          await list.reload();
        }}
      >
        <p>
          <strong>{revoking?.name}</strong> loses access to your account at once: its tokens stop working. If you use it again, it will ask for your permission.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
