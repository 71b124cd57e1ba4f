import { useState } from "preact/hooks";
import { type App, appsApi } from "../../api/apps.ts";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { formatTime } from "../../lib/format.ts";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { AppBadges } from "./app-badges.tsx";
import { AppForm } from "./app-form.tsx";
import { NEW_APP } from "./app-form-state.ts";
import { CreatedAppNotice } from "./created-app-notice.tsx";
import { IntegrationPicker } from "./integration-picker.tsx";
import { IntegrationSetup } from "./integration-setup.tsx";
import type { Setup } from "../../api/integrations.ts";

type Created = { name: string; clientId: string; secret?: string; isPublic: boolean; setup?: Setup };

/** "My apps": the apps this user registered to sign people in with this site, and a form for another. */
export function AppsPage() {
  const user = useRequiredUser();
  const list = useLoad(() => (user ? appsApi.list() : Promise.resolve([] as App[])), [user?.id]);
  const [created, setCreated] = useState<Created | null>(null);
  // A new key empties the form after each registration.
  const [formKey, setFormKey] = useState(0);
  // The catalog first; every setting by hand when the user asks for it.
  const [custom, setCustom] = useState(false);
  if (!user) return <p class="muted">Loading…</p>;
  const apps = list.data ?? [];
  return (
    <div class="page">
      <header class="page-head">
        <h1>My apps</h1>
        <p class="muted">Apps you registered to let people sign in with their account here (OAuth 2.0 and OpenID Connect).</p>
      </header>
      {created ? (
        <CreatedAppNotice {...created} onDone={() => setCreated(null)}>
          {created.setup ? <IntegrationSetup clientId={created.clientId} isPublic={created.isPublic} setup={created.setup} secret={created.secret} /> : null}
        </CreatedAppNotice>
      ) : null}
      <Card title="Your apps">
        {list.error ? <p class="form-error">{list.error}</p> : null}
        {list.loading && !list.data ? <p class="muted">Loading…</p> : null}
        {list.data && apps.length === 0 ? <EmptyState title="No apps yet">Register one below to get a client ID.</EmptyState> : null}
        {apps.length > 0 ? (
          <ul class="rows" aria-label="Your apps">
            {apps.map((a) => (
              <li key={a.client_id} class="row">
                <div class="grow">
                  <a href={`/apps/${encodeURIComponent(a.client_id)}`}>
                    <strong>{a.name}</strong>
                  </a>{" "}
                  <AppBadges app={a} />
                  <span class="row-meta">
                    <code>{a.client_id}</code> · {a.redirect_uris.length} redirect URI{a.redirect_uris.length === 1 ? "" : "s"} · registered{" "}
                    {formatTime(a.created_at)}
                  </span>
                </div>
                <a class="btn btn-secondary" href={`/apps/${encodeURIComponent(a.client_id)}`} aria-label={`Settings of ${a.name}`}>
                  Settings
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
      <Card id="new-app" title="Register an app">
        {custom ? (
          <>
            <p>
              <button type="button" class="link-button" onClick={() => setCustom(false)}>
                Back to the applications
              </button>
            </p>
            <AppForm
              key={formKey}
              initial={NEW_APP}
              submitLabel="Register app"
              onSubmit={async (input) => {
                const app = await appsApi.create(input);
                setCreated({ name: app.name, clientId: app.client_id, secret: app.client_secret, isPublic: app.public });
                setFormKey((k) => k + 1);
                await list.reload();
              }}
            />
          </>
        ) : (
          <IntegrationPicker
            key={formKey}
            onCustom={() => setCustom(true)}
            onRegistered={(app) => {
              setCreated({ name: app.name, clientId: app.client_id, secret: app.client_secret, isPublic: app.public, setup: app.setup });
              setFormKey((k) => k + 1);
              void list.reload();
            }}
          />
        )}
      </Card>
    </div>
  );
}
