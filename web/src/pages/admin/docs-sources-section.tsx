import { useState } from "preact/hooks";
import { type DocsSource, docsApi, type SourceInput } from "../../api/docs.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useAction } from "../../lib/use-action.ts";
import { EditSourceDialog } from "./edit-source-dialog.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { splitList } from "../../lib/format.ts";

const KINDS: { value: SourceInput["kind"]; label: string }[] = [
  { value: "github", label: "A GitHub (or compatible) repository" },
  { value: "local", label: "A folder on this machine" },
];

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

function AddSourceForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const empty = {
    slug: "",
    name: "",
    kind: "github" as SourceInput["kind"],
    full_name: "",
    branch: "main",
    docs_root: "docs",
    api_base: "",
    token: "",
    local_path: "",
    locales: "",
  };
  const [form, setForm] = useState(empty);
  const { busy, error, submit: run } = useSubmit();
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm({ ...form, [key]: value });
  const submit = () =>
    run(async () => {
      const locales = splitList(form.locales);
      const input: SourceInput = { slug: form.slug.trim(), name: form.name.trim(), kind: form.kind, docs_root: form.docs_root, locales };
      if (locales[0]) input.default_locale = locales[0];
      if (form.kind === "github")
        Object.assign(input, {
          full_name: form.full_name,
          branch: form.branch,
          ...(form.api_base ? { api_base: form.api_base } : {}),
          ...(form.token ? { token: form.token } : {}),
        });
      else input.local_path = form.local_path;
      await docsApi.add(input);
      setForm(empty);
      await onAdded();
    });
  return (
    <Form onSubmit={() => void submit()}>
      <h3>Add a source</h3>
      <SelectField label="Kind" value={form.kind} options={KINDS} onValue={(v) => set("kind", v)} />
      <TextField label="Name" value={form.name} onValue={(v) => set("name", v)} placeholder="Cairn" />
      <TextField label="Slug" value={form.slug} onValue={(v) => set("slug", v)} placeholder="cairn" hint="The address: /docs/<slug>/." />
      {form.kind === "github" ? (
        <>
          <TextField label="Repository" value={form.full_name} onValue={(v) => set("full_name", v)} placeholder="owner/repository" />
          <TextField label="Branch" value={form.branch} onValue={(v) => set("branch", v)} />
          <TextField
            label="API base URL (optional)"
            type="url"
            value={form.api_base}
            onValue={(v) => set("api_base", v)}
            hint="Empty for github.com; your GitHub Enterprise or Gitea API otherwise (https)."
          />
          <TextField
            label="Access token (optional)"
            type="password"
            value={form.token}
            onValue={(v) => set("token", v)}
            hint="For a private repository: read access to contents."
            autocomplete="new-password"
          />
        </>
      ) : (
        <TextField
          label="Folder"
          value={form.local_path}
          onValue={(v) => set("local_path", v)}
          placeholder="/srv/docs"
          hint="An absolute path; read again on restart."
        />
      )}
      <TextField
        label="Docs folder"
        value={form.docs_root}
        onValue={(v) => set("docs_root", v)}
        hint="The folder of the Markdown files inside it; empty for its root."
      />
      <TextField
        label="Locales (optional)"
        value={form.locales}
        onValue={(v) => set("locales", v)}
        placeholder="en, fr"
        hint="Locale folders under the docs folder; the first is the default, which the others fall back to."
      />
      <FormError message={error} />
      <div class="form-actions start">
        <Button type="submit" busy={busy}>
          Add source
        </Button>
      </div>
    </Form>
  );
}

/**
 * The documentation site's sources (Admin → Documentation): each source, its cache, a refresh
 * button; the webhook URL and whether its secret is set; the last deliveries and what they did.
 */
export function DocsSourcesSection() {
  const loaded = useLoad(() => docsApi.overview());
  const { busy, run } = useAction();
  const [editing, setEditing] = useState<DocsSource | null>(null);
  const data = loaded.data;
  const refresh = (s: DocsSource) =>
    run(
      `refresh:${s.id}`,
      async () => {
        await docsApi.refresh(s.id);
        await loaded.reload();
      },
      `${s.name}: cache emptied; pages are read again from the source.`,
    );
  const remove = (s: DocsSource) =>
    run(
      `remove:${s.id}`,
      async () => {
        await docsApi.remove(s.id);
        await loaded.reload();
      },
      `${s.name} removed.`,
    );
  return (
    <Card id="documentation" title="Documentation">
      {loaded.error ? <p class="form-error">{loaded.error}</p> : null}
      {!data ? <p class="muted">Loading…</p> : null}
      {data ? (
        <>
          <p class="muted">
            The site is at <a href="/docs">/docs</a>. On GitHub, add a webhook (Settings → Webhooks) with this payload URL, content type{" "}
            <code>application/json</code>, the secret in <code>DOCS_WEBHOOK_SECRET</code>, and the push event.
          </p>
          <CopyField label="Webhook URL" value={data.webhook.url} />
          <p role="status" class={data.webhook.secret_configured ? "muted" : "form-error"}>
            {data.webhook.secret_configured
              ? "Webhook secret: set. Deliveries are checked against it."
              : "Webhook secret: not set. Set DOCS_WEBHOOK_SECRET: without it anyone can send deliveries (fine for local testing only)."}
          </p>
          <ul class="rows" aria-label="Documentation sources">
            {data.sources.map((s) => (
              <li key={s.id} class="row">
                <div class="grow">
                  <strong>{s.name}</strong>{" "}
                  <a href={`/docs/${s.slug}/`} class="row-meta">
                    /docs/{s.slug}/
                  </a>
                  <span class="row-meta">
                    {s.kind === "github" ? `${s.full_name} @ ${s.branch}` : s.local_path}
                    {s.docs_root ? ` · ${s.docs_root}/` : ""}
                    {s.locales.length ? ` · ${s.locales.join(", ")}` : ""}
                    {s.token_set ? " · token set" : ""} · cache:{" "}
                    {s.cache.length === 0 ? "empty" : s.cache.map((c) => `${c.kind} ${c.entries} (${kb(c.bytes)})`).join(", ")}
                  </span>
                </div>
                <Button variant="secondary" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                  Edit
                </Button>
                <Button variant="secondary" busy={busy === `refresh:${s.id}`} onClick={() => void refresh(s)} aria-label={`Refresh ${s.name} now`}>
                  Refresh now
                </Button>
                <Button variant="danger" busy={busy === `remove:${s.id}`} onClick={() => void remove(s)} aria-label={`Remove ${s.name}`}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          {data.sources.length === 0 ? <p class="empty-inline">No source yet.</p> : null}
          {editing ? <EditSourceDialog source={editing} onClose={() => setEditing(null)} onSaved={loaded.reload} /> : null}
          <AddSourceForm onAdded={loaded.reload} />
          <h3>Last deliveries</h3>
          {data.deliveries.length === 0 ? (
            <p class="empty-inline">None received yet.</p>
          ) : (
            <table class="table table-small" aria-label="Webhook deliveries">
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Event</th>
                  <th>Repository</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {data.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{new Date(d.received_at).toLocaleString()}</td>
                    <td>{d.event}</td>
                    <td>{d.repository ?? "—"}</td>
                    <td>{d.result}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </Card>
  );
}
