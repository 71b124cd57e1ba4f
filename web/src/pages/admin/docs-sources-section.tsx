import { useState } from "preact/hooks";
import { type DocsSource, docsApi, type SourceInput } from "../../api/docs.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { AddForm } from "../../components/add-form.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { useAction } from "../../lib/use-action.ts";
import { EditSourceDialog } from "./edit-source-dialog.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { formatTime, splitList } from "../../lib/format.ts";

const KINDS: { value: SourceInput["kind"]; label: string }[] = [
  { value: "github", label: "A GitHub (or compatible) repository" },
  { value: "local", label: "A folder on this machine" },
];

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

function AddSourceForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const form = useAddForm({
    initial: () => ({
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
    }),
    send: (v) => {
      const locales = splitList(v.locales);
      const input: SourceInput = { slug: v.slug.trim(), name: v.name.trim(), kind: v.kind, docs_root: v.docs_root, locales };
      if (locales[0]) input.default_locale = locales[0];
      if (v.kind === "github")
        Object.assign(input, {
          full_name: v.full_name,
          branch: v.branch,
          ...(v.api_base ? { api_base: v.api_base } : {}),
          ...(v.token ? { token: v.token } : {}),
        });
      else input.local_path = v.local_path;
      return docsApi.add(input);
    },
    done: onAdded,
  });
  const { values, field } = form;
  return (
    <AddForm form={form} title="Add a source" submitLabel="Add source">
      <SelectField label="Kind" {...field("kind")} options={KINDS} />
      <TextField label="Name" {...field("name")} placeholder="Cairn" />
      <TextField label="Slug" {...field("slug")} placeholder="cairn" hint="The address: /docs/<slug>/." />
      {values.kind === "github" ? (
        <>
          <TextField label="Repository" {...field("full_name")} placeholder="owner/repository" />
          <TextField label="Branch" {...field("branch")} />
          <TextField
            label="API base URL (optional)"
            type="url"
            {...field("api_base")}
            hint="Empty for github.com; your GitHub Enterprise or Gitea API otherwise (https)."
          />
          <TextField
            label="Access token (optional)"
            type="password"
            {...field("token")}
            hint="For a private repository: read access to contents."
            autocomplete="new-password"
          />
        </>
      ) : (
        <TextField label="Folder" {...field("local_path")} placeholder="/srv/docs" hint="An absolute path; read again on restart." />
      )}
      <TextField label="Docs folder" {...field("docs_root")} hint="The folder of the Markdown files inside it; empty for its root." />
      <TextField
        label="Locales (optional)"
        {...field("locales")}
        placeholder="en, fr"
        hint="Locale folders under the docs folder; the first is the default, which the others fall back to."
      />
    </AddForm>
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
  const setHidden = (s: DocsSource, hidden: boolean) =>
    run(
      `hide:${s.id}`,
      async () => {
        await docsApi.setHidden(s.id, hidden);
        await loaded.reload();
      },
      hidden ? `${s.name} hidden from the site.` : `${s.name} shown on the site again.`,
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
                  {s.kind === "builtin" ? (
                    <span class="row-meta">
                      <span class="badge">Built in</span> Cairn's own guide, carried in the program and updated with it.
                      {s.hidden ? " Hidden from the site." : ""}
                    </span>
                  ) : (
                    <span class="row-meta">
                      {s.kind === "github" ? `${s.full_name} @ ${s.branch}` : s.local_path}
                      {s.docs_root ? ` · ${s.docs_root}/` : ""}
                      {s.locales.length ? ` · ${s.locales.join(", ")}` : ""}
                      {s.token_set ? " · token set" : ""} · cache:{" "}
                      {s.cache.length === 0 ? "empty" : s.cache.map((c) => `${c.kind} ${c.entries} (${kb(c.bytes)})`).join(", ")}
                    </span>
                  )}
                </div>
                {s.kind === "builtin" ? (
                  // Part of Cairn: shown or hidden, never edited or removed.
                  <Button
                    variant="secondary"
                    busy={busy === `hide:${s.id}`}
                    onClick={() => void setHidden(s, !s.hidden)}
                    aria-label={`${s.hidden ? "Show" : "Hide"} ${s.name}`}
                  >
                    {s.hidden ? "Show on the site" : "Hide from the site"}
                  </Button>
                ) : (
                  <>
                    <Button variant="secondary" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                      Edit
                    </Button>
                    <Button variant="secondary" busy={busy === `refresh:${s.id}`} onClick={() => void refresh(s)} aria-label={`Refresh ${s.name} now`}>
                      Refresh now
                    </Button>
                    <Button variant="danger" busy={busy === `remove:${s.id}`} onClick={() => void remove(s)} aria-label={`Remove ${s.name}`}>
                      Remove
                    </Button>
                  </>
                )}
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
                    <td>{formatTime(d.received_at)}</td>
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
