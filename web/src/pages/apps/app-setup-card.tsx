import type { App } from "../../api/apps.ts";
import { integrationsApi } from "../../api/integrations.ts";
import { Card } from "../../components/card.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { IntegrationSetup } from "./integration-setup.tsx";

/** An app registered from the catalog: its configuration again (without the secret), and a test login. */
export function AppSetupCard({ app }: { app: App }) {
  const setup = useLoad(() => integrationsApi.setup(app.client_id), [app.client_id, app.redirect_uris, app.scopes]);
  return (
    <Card id="setup" title="Set up the app">
      {setup.error ? <p class="form-error">{setup.error}</p> : null}
      {setup.loading && !setup.data ? <p class="muted">Loading…</p> : null}
      {setup.data ? <IntegrationSetup clientId={app.client_id} isPublic={app.public} setup={setup.data} /> : null}
    </Card>
  );
}
