import { useRoute } from "preact-iso";
import { appsApi } from "../../api/apps.ts";
import { ApiError } from "../../api/http.ts";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { toast } from "../../lib/toasts.ts";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { AppBadges } from "./app-badges.tsx";
import { AppCredentials } from "./app-credentials.tsx";
import { AppDangerZone } from "./app-danger-zone.tsx";
import { AppDeliveries } from "./app-deliveries.tsx";
import { AppMachineTokens } from "./app-machine-tokens.tsx";
import { AppChallenges } from "./app-challenges.tsx";
import { AppForm } from "./app-form.tsx";
import { formFromApp } from "./app-form-state.ts";
import { AppVerification } from "./app-verification.tsx";
import { AppSetupCard } from "./app-setup-card.tsx";

/** One of the user's apps: credentials, settings, and deleting it. */
export function AppPage() {
  const user = useRequiredUser();
  const { params } = useRoute();
  const clientId = params.clientId ?? "";
  const loaded = useLoad(async () => {
    if (!user) return undefined;
    try {
      return await appsApi.get(clientId);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  }, [clientId, user?.id]);
  if (!user || (loaded.loading && loaded.data === undefined)) return <p class="muted">Loading…</p>;
  const app = loaded.data;
  if (!app)
    return (
      <EmptyState
        title={app === null ? "App not found" : "This app could not be loaded"}
        action={
          <a class="btn btn-secondary" href="/apps">
            My apps
          </a>
        }
      >
        {app === null ? "It does not exist, or it is not one of yours." : loaded.error}
      </EmptyState>
    );
  return (
    <div class="page">
      <header class="page-head">
        <p class="crumbs">
          <a href="/apps">My apps</a>
        </p>
        <div class="title-row">
          <h1>{app.name}</h1>
          <AppBadges app={app} />
        </div>
        {app.description ? <p class="muted">{app.description}</p> : null}
      </header>
      <AppCredentials app={app} />
      {app.integration ? <AppSetupCard app={app} /> : null}
      <Card id="settings" title="Settings">
        <AppForm
          key={`${app.client_id}:${app.public}`}
          initial={formFromApp(app)}
          submitLabel="Save changes"
          onSubmit={async (input) => {
            const saved = await appsApi.update(app.client_id, input);
            // A public client turned confidential has no secret until one is made.
            const message = app.public && !saved.public ? "Saved. The app is now confidential: rotate its secret to make one." : "App saved.";
            // Said once the page shows what was saved, not while it still shows the old values.
            await loaded.reload();
            toast(message, "success");
          }}
        />
      </Card>
      <AppDeliveries app={app} />
      <AppMachineTokens app={app} />
      <AppChallenges app={app} />
      {user.role === "admin" ? <AppVerification app={app} onChange={loaded.reload} /> : null}
      <AppDangerZone app={app} />
    </div>
  );
}
