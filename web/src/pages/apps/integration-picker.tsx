import { useState } from "preact/hooks";
import type { App } from "../../api/apps.ts";
import { type Integration, integrationsApi, previewRedirect, type Setup } from "../../api/integrations.ts";
import { Button } from "../../components/button.tsx";
import { FormError } from "../../components/form-error.tsx";
import { TextField } from "../../components/field.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { withoutFieldName } from "./app-form-state.ts";
import { CatalogEntryHead } from "./catalog-entry-head.tsx";
import { ForwardAuthEntry } from "./forward-auth-entry.tsx";

export type Registered = App & { client_secret?: string; setup: Setup };

type Props = { onRegistered: (app: Registered) => void; onCustom: () => void };

/** "What are you connecting?": the catalog, then the one question its entry asks. */
export function IntegrationPicker({ onRegistered, onCustom }: Props) {
  const list = useLoad(() => integrationsApi.list(), []);
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<Integration | null>(null);
  if (chosen?.kind === "forward_auth") return <ForwardAuthEntry entry={chosen} onBack={() => setChosen(null)} />;
  if (chosen) return <IntegrationForm entry={chosen} onBack={() => setChosen(null)} onRegistered={onRegistered} />;
  const q = query.trim().toLowerCase();
  const shown = (list.data ?? []).filter((e) => !q || `${e.name} ${e.category} ${e.description}`.toLowerCase().includes(q));
  return (
    <div class="catalog">
      <h3 class="catalog-question">What are you connecting?</h3>
      <TextField label="Search applications" type="text" value={query} onValue={setQuery} placeholder="Grafana, Nextcloud, oauth2-proxy…" />
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {list.loading && !list.data ? <p class="muted">Loading…</p> : null}
      {list.data && shown.length === 0 ? <p class="muted">No application matches “{query}”. Choose Generic OpenID Connect, or custom settings.</p> : null}
      <ul class="catalog-grid" aria-label="Applications">
        {shown.map((e) => (
          <li key={e.id}>
            <button type="button" class="catalog-item" onClick={() => setChosen(e)}>
              <span class="catalog-initial" aria-hidden="true">
                {e.name.slice(0, 1)}
              </span>
              <span class="catalog-text">
                <strong>{e.name}</strong>
                <span class="muted">{e.category}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <p class="muted">
        Not listed, or need every setting?{" "}
        <button type="button" class="link-button" onClick={onCustom}>
          Register with custom settings
        </button>
      </p>
    </div>
  );
}

const AUTH_METHOD_TEXT: Record<string, string> = {
  client_secret_basic: "client secret (HTTP Basic)",
  client_secret_post: "client secret (in the form)",
  none: "none: a public client with PKCE",
};

function IntegrationForm({ entry, onBack, onRegistered }: { entry: Integration; onBack: () => void; onRegistered: (app: Registered) => void }) {
  const [name, setName] = useState(entry.name);
  const [base, setBase] = useState("");
  const [redirect, setRedirect] = useState("");
  const { busy, error, submit } = useSubmit();
  const answer = { name, ...(entry.ask === "base_url" ? { base_url: base } : {}), ...(entry.ask === "redirect_uri" ? { redirect_uri: redirect } : {}) };
  return (
    <form
      class="catalog-form"
      aria-label={`Register ${entry.name}`}
      onSubmit={(ev) => {
        ev.preventDefault();
        void submit(async () => onRegistered(await integrationsApi.register(entry.id, answer)));
      }}
    >
      <CatalogEntryHead entry={entry} onBack={onBack} docs="Its sign-in documentation" />
      <TextField label="Name" value={name} onValue={setName} hint="As people will see it on the consent page." />
      {entry.ask === "base_url" ? (
        <TextField
          label={entry.base_url_label ?? "The app's address"}
          type="url"
          value={base}
          onValue={setBase}
          placeholder={entry.base_url_example ?? "https://app.example.com"}
          hint="https, or http on this machine (localhost)."
        />
      ) : null}
      {entry.ask === "redirect_uri" ? (
        <TextField
          label="Redirect URI"
          type="url"
          value={redirect}
          onValue={setRedirect}
          placeholder="https://app.example.com/oauth/callback"
          hint="The exact address where the app receives the sign-in (its callback URL)."
        />
      ) : null}
      <dl class="catalog-settings" aria-label="Settings this registers">
        <dt>Redirect URI</dt>
        {previewRedirect(entry, answer).map((uri) => (
          <dd key={uri}>
            <code>{uri}</code> (exact match)
          </dd>
        ))}
        <dt>Scopes</dt>
        <dd>{entry.scopes.join(" ")}</dd>
        <dt>Client authentication</dt>
        <dd>{AUTH_METHOD_TEXT[entry.token_endpoint_auth_method] ?? entry.token_endpoint_auth_method}</dd>
        <dt>ID token algorithm</dt>
        <dd>
          {entry.id_token_signed_response_alg}
          {entry.id_token_signed_response_alg === "RS256" ? " (what this app verifies; ML-DSA-65 needs a post-quantum client)" : null}
        </dd>
        {entry.jwks === "classic" ? (
          <>
            <dt>Signing keys</dt>
            <dd>the classic key set (this app's parser stops at post-quantum keys)</dd>
          </>
        ) : null}
      </dl>
      <FormError message={error && withoutFieldName(error)} />
      <div class="form-actions start">
        <Button type="submit" busy={busy}>
          Register {entry.name}
        </Button>
      </div>
    </form>
  );
}
