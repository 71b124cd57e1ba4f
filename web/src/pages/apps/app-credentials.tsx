import { useState } from "preact/hooks";
import { type App, appsApi } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { LocalhostWarning } from "../../components/localhost-warning.tsx";

/** What a developer configures in the app: the issuer, the client ID, and the secret (rotated here). */
export function AppCredentials({ app }: { app: App }) {
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Card id="credentials" title="Credentials">
      <CopyField
        label="Issuer"
        value={location.origin}
        hint={`Client libraries find everything else at ${location.origin}/.well-known/openid-configuration.`}
      />
      {/* A catalog app's setup card says it beside the settings to copy. */}
      {app.integration ? null : (
        <LocalhostWarning issuer={location.origin} audience={{ apps: app.redirect_uris.filter((r) => r.match === "equals").map((r) => r.uri) }} />
      )}
      <CopyField label="Client ID" value={app.client_id} />
      {app.public ? (
        <p class="muted">This is a public client: it has no secret and must use PKCE.</p>
      ) : (
        <>
          <h3>Client secret</h3>
          {secret ? (
            <div class="notice notice-success">
              <CopyField label="New client secret" value={secret} hint="Copy it now: it will not be shown again." />
              <Button variant="secondary" onClick={() => setSecret(null)}>
                Done
              </Button>
            </div>
          ) : (
            <>
              <p class="muted">The secret is shown only when it is made. If it was lost or may have leaked, make a new one.</p>
              <Button variant="secondary" onClick={() => setConfirming(true)}>
                Rotate secret
              </Button>
            </>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Make a new client secret?"
        confirmLabel="Rotate secret"
        onClose={() => setConfirming(false)}
        onConfirm={async () => setSecret(await appsApi.rotateSecret(app.client_id))}
      >
        <p>
          The current secret of <strong>{app.name}</strong> stops working at once: the app cannot sign anyone in until it has the new one.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
