import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type App, appsApi } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { toast } from "../../lib/toasts.ts";

/** Deleting the app, after asking. */
export function AppDangerZone({ app }: { app: App }) {
  const { route } = useLocation();
  const [deleting, setDeleting] = useState(false);
  return (
    <Card id="delete" title="Delete this app">
      <p class="muted">People can no longer sign in to it, and every token it holds stops working. This cannot be undone.</p>
      <Button variant="danger" onClick={() => setDeleting(true)}>
        Delete app
      </Button>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${app.name}?`}
        confirmLabel="Delete app"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await appsApi.remove(app.client_id);
          toast(`${app.name} deleted.`, "success");
          route("/apps");
        }}
      >
        <p>Its client ID and secret stop working at once, and everyone who allowed it loses the connection.</p>
      </ConfirmDialog>
    </Card>
  );
}
