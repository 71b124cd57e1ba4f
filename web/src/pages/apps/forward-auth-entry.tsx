import { useState } from "preact/hooks";
import { type ForwardAuthRule, forwardAuthApi, type ProxySnippet } from "../../api/forward-auth.ts";
import type { Integration } from "../../api/integrations.ts";
import { Button } from "../../components/button.tsx";
import { copyText } from "../../components/copy-field.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { currentUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { RuleDialog } from "../admin/forward-auth-rule-dialog.tsx";
import { RuleTest } from "../admin/forward-auth-test.tsx";
import { withoutFieldName } from "./app-form-state.ts";
import { CatalogEntryHead } from "./catalog-entry-head.tsx";

type Props = { entry: Integration; onBack: () => void };

const PROXY_NAMES: Record<string, string> = { nginx: "nginx", caddy: "Caddy", traefik: "Traefik" };

/**
 * A forward-auth entry of the catalog (nginx, Caddy, Traefik): no app is registered. An
 * administrator types the app's address and where the proxy sends its requests, gets the proxy's
 * configuration with the real values, adds the rule for the app's host and tests it.
 */
export function ForwardAuthEntry({ entry, onBack }: Props) {
  const admin = currentUser.value?.role === "admin";
  const [appUrl, setAppUrl] = useState("");
  const [upstream, setUpstream] = useState("");
  const [written, setWritten] = useState<{ snippet: ProxySnippet; appUrl: string } | null>(null);
  const { busy, error, submit } = useSubmit();
  const write = () =>
    submit(async () => {
      const snippet = await forwardAuthApi.snippet({ kind: entry.proxy ?? "nginx", app_url: appUrl, upstream });
      setWritten({ snippet, appUrl: appUrl.trim().replace(/\/+$/, "") });
    });
  return (
    <div class="catalog-form">
      <CatalogEntryHead entry={entry} onBack={onBack} docs="Its documentation" />
      {admin ? (
        <Form onSubmit={() => void write()}>
          <TextField
            label={entry.base_url_label ?? "The app's address"}
            type="url"
            value={appUrl}
            onValue={setAppUrl}
            placeholder={entry.base_url_example ?? "https://app.home.example"}
            hint="Scheme, host and port only: the proxy protects every path of it."
          />
          <TextField
            label="Where the proxy sends its requests (upstream)"
            type="url"
            value={upstream}
            onValue={setUpstream}
            placeholder="http://127.0.0.1:8096"
            hint="The app itself, as the proxy reaches it."
          />
          <FormError message={error && withoutFieldName(error)} />
          <div class="form-actions start">
            <Button type="submit" busy={busy}>
              Write the configuration
            </Button>
          </div>
        </Form>
      ) : (
        <p class="notice">Forward auth protects apps at this site's reverse proxy: an administrator of this site sets it up.</p>
      )}
      {written ? <Written key={written.appUrl} entry={entry} snippet={written.snippet} appUrl={written.appUrl} /> : null}
    </div>
  );
}

function Written({ entry, snippet, appUrl }: { entry: Integration; snippet: ProxySnippet; appUrl: string }) {
  const host = new URL(appUrl).hostname;
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<ForwardAuthRule | null>(null);
  const choices = useLoad(() => (adding ? forwardAuthApi.choices() : Promise.resolve(null)), [adding]);
  return (
    <div class="setup">
      <div class="setup-head">
        <h3>
          Add to {PROXY_NAMES[entry.proxy ?? ""] ?? entry.name}: {snippet.title}
        </h3>
        <Button variant="secondary" onClick={() => void copyText(snippet.text, "Configuration copied")} aria-label="Copy the configuration">
          Copy
        </Button>
      </div>
      <figure class="setup-figure" aria-label={`Configuration for ${entry.name}`}>
        <pre class="setup-snippet">
          <code>{snippet.text}</code>
        </pre>
      </figure>
      {entry.notes ? <p class="setup-notes">{entry.notes}</p> : null}
      {added ? (
        <p class="notice notice-success" role="status">
          The rule for {added.host} is added, last in <a href="/admin#forward-auth">Administration → Forward auth</a>, where you can move it.
        </p>
      ) : (
        <div class="form-actions start">
          <Button variant="secondary" onClick={() => setAdding(true)}>
            Add the rule for {host}
          </Button>
        </div>
      )}
      {adding && choices.data ? (
        <RuleDialog
          start={{ host }}
          choices={choices.data}
          onClose={() => setAdding(false)}
          onSaved={(rule) => {
            setAdded(rule);
          }}
        />
      ) : null}
      {choices.error ? <p class="form-error">{choices.error}</p> : null}
      <RuleTest initialUrl={`${appUrl}/`} />
    </div>
  );
}
