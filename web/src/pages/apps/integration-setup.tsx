import { useState } from "preact/hooks";
import { integrationsApi, type Setup, type TestLoginReport } from "../../api/integrations.ts";
import { Button } from "../../components/button.tsx";
import { copyText } from "../../components/copy-field.tsx";
import { TextField } from "../../components/field.tsx";
import { FormError } from "../../components/form-error.tsx";
import { LocalhostWarning } from "../../components/localhost-warning.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

type Props = { clientId: string; isPublic: boolean; setup: Setup /** Known right after registration only. */; secret?: string };

/** What to paste into the app, and a test sign-in run with the app's settings. */
export function IntegrationSetup({ clientId, isPublic, setup, secret }: Props) {
  return (
    <div class="setup">
      <div class="setup-head">
        <h3>
          Paste into {setup.integration.name}: {setup.title}
        </h3>
        <Button variant="secondary" onClick={() => void copyText(setup.text, "Configuration copied")} aria-label="Copy the configuration">
          Copy
        </Button>
      </div>
      <figure class="setup-figure" aria-label={`Configuration for ${setup.integration.name}`}>
        <pre class="setup-snippet">
          <code>{setup.text}</code>
        </pre>
      </figure>
      <LocalhostWarning issuer={setup.values.issuer ?? ""} audience={{ apps: [setup.values.redirect_uri ?? "", setup.values.base_url ?? ""] }} />
      {setup.notes ? <p class="setup-notes">{setup.notes}</p> : null}
      <p class="muted">
        <a href={setup.integration.docs_url} target="_blank" rel="noopener noreferrer">
          {setup.integration.name}'s sign-in documentation
        </a>
      </p>
      <TestLogin clientId={clientId} isPublic={isPublic} secret={secret} />
    </div>
  );
}

function TestLogin({ clientId, isPublic, secret }: { clientId: string; isPublic: boolean; secret?: string }) {
  const [typed, setTyped] = useState("");
  const [report, setReport] = useState<TestLoginReport | null>(null);
  const { busy, error, submit } = useSubmit();
  const needsSecret = !isPublic && !secret;
  return (
    <section class="test-login" aria-label="Test login">
      <h3>Test login</h3>
      <p class="muted">
        Signs you in to this app with its settings, as the app would: authorization with PKCE, consent, the code exchange with its credentials, its ID token
        checked with its algorithm and keys, userinfo and a refresh. Nothing is left behind.
      </p>
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          void submit(async () => setReport(await integrationsApi.testLogin(clientId, secret ?? (typed || undefined))));
        }}
      >
        {needsSecret ? (
          <TextField
            label="Client secret"
            type="password"
            value={typed}
            onValue={setTyped}
            hint="The secret you pasted into the app (it is not stored here)."
          />
        ) : null}
        <FormError message={error} />
        <div class="form-actions start">
          <Button type="submit" variant="secondary" busy={busy}>
            Test login
          </Button>
        </div>
      </form>
      {report ? <TestLoginResult report={report} /> : null}
    </section>
  );
}

const shown = (v: unknown) => (v === null || v === undefined ? "(not sent)" : typeof v === "string" ? v : JSON.stringify(v));

function TestLoginResult({ report }: { report: TestLoginReport }) {
  return (
    <div class={`notice ${report.ok ? "notice-success" : "notice-danger"}`} role="status">
      <p>
        <strong>{report.ok ? "The sign-in works." : "The sign-in fails."}</strong>
      </p>
      <ol class="test-steps" aria-label="Test login steps">
        {report.steps.map((s) => (
          <li key={s.step} class={s.ok ? "ok" : "failed"}>
            <span aria-hidden="true">{s.ok ? "✓" : "✗"}</span> <strong>{s.step}</strong>: {s.detail}
          </li>
        ))}
      </ol>
      {report.claims_used.length > 0 && report.ok ? (
        <>
          <p>What the app sees:</p>
          <table class="claims-table" aria-label="What the app sees">
            <tbody>
              {report.claims_used.map((c) => (
                <tr key={c.name}>
                  <th scope="row">
                    <code>{c.name}</code>
                  </th>
                  <td>{shown(c.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
