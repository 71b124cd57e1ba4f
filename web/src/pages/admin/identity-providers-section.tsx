import { useState } from "preact/hooks";
import { type IdentityProvider, type ProviderInput, socialApi } from "../../api/social.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { Checkbox, SelectField, TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { EditProviderDialog } from "./edit-provider-dialog.tsx";

const KINDS: { value: "oidc" | "github"; label: string }[] = [
  { value: "oidc", label: "OpenID Connect (Google, Keycloak, authentik, another Cairn…)" },
  { value: "github", label: "GitHub or GitHub Enterprise" },
];

function AddProviderForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const empty = {
    kind: "oidc" as "oidc" | "github",
    name: "",
    slug: "",
    issuer: "",
    web_url: "",
    api_url: "",
    client_id: "",
    client_secret: "",
    scopes: "",
    trust_email: false,
  };
  const [form, setForm] = useState(empty);
  const { busy, error, submit: run } = useSubmit();
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm({ ...form, [key]: value });
  const slug = form.slug.trim().toLowerCase();
  const submit = () =>
    run(async () => {
      const input: ProviderInput = { kind: form.kind, name: form.name, slug, client_id: form.client_id, trust_email: form.trust_email };
      if (form.client_secret) input.client_secret = form.client_secret;
      if (form.scopes.trim()) input.scopes = form.scopes;
      if (form.kind === "oidc") input.issuer = form.issuer;
      else Object.assign(input, form.web_url ? { web_url: form.web_url } : {}, form.api_url ? { api_url: form.api_url } : {});
      await socialApi.create(input);
      setForm(empty);
      await onAdded();
    });
  return (
    <Form onSubmit={() => void submit()}>
      <h3>Add a provider</h3>
      <SelectField label="Kind" value={form.kind} options={KINDS} onValue={(v) => set("kind", v)} />
      <TextField
        label="Name"
        value={form.name}
        onValue={(v) => set("name", v)}
        placeholder={form.kind === "github" ? "GitHub" : "Google"}
        hint="The button says “Sign in with <name>”."
      />
      <TextField
        label="Slug"
        value={form.slug}
        onValue={(v) => set("slug", v)}
        placeholder={form.kind === "github" ? "github" : "google"}
        hint={
          slug
            ? `Register this callback URL at the provider: ${window.location.origin}/api/auth/social/${slug}/callback`
            : "Lowercase; part of the callback URL, fixed once added."
        }
      />
      {form.kind === "oidc" ? (
        <TextField
          label="Issuer URL"
          type="url"
          value={form.issuer}
          onValue={(v) => set("issuer", v)}
          placeholder="https://accounts.google.com"
          hint="Cairn reads its discovery document when you add it."
        />
      ) : (
        <>
          <TextField
            label="Web URL (optional)"
            type="url"
            value={form.web_url}
            onValue={(v) => set("web_url", v)}
            hint="Empty for github.com; https://github.example.com for GitHub Enterprise."
          />
          <TextField
            label="API URL (optional)"
            type="url"
            value={form.api_url}
            onValue={(v) => set("api_url", v)}
            hint="Empty for api.github.com; https://github.example.com/api/v3 for GitHub Enterprise."
          />
        </>
      )}
      <TextField label="Client ID" value={form.client_id} onValue={(v) => set("client_id", v)} autocomplete="off" />
      <TextField label="Client secret" type="password" value={form.client_secret} onValue={(v) => set("client_secret", v)} autocomplete="new-password" />
      <TextField
        label="Scopes (optional)"
        value={form.scopes}
        onValue={(v) => set("scopes", v)}
        placeholder={form.kind === "github" ? "read:user user:email" : "openid profile email"}
      />
      <Checkbox
        label="Trust the provider's verified emails"
        checked={form.trust_email}
        onChange={(v) => set("trust_email", v)}
        hint="New accounts then start with a verified email when the provider says it verified it."
      />
      <FormError message={error} />
      <div class="form-actions start">
        <Button type="submit" busy={busy}>
          Add provider
        </Button>
      </div>
    </Form>
  );
}

/**
 * Upstream identity providers (Admin → Sign-in providers): people sign in with an account they
 * have there, from the login page's buttons, and link one from their account page.
 */
export function IdentityProvidersSection() {
  const loaded = useLoad(() => socialApi.adminList());
  const { busy, run } = useAction();
  const [removing, setRemoving] = useState<IdentityProvider | null>(null);
  const [editing, setEditing] = useState<IdentityProvider | null>(null);
  const toggle = (p: IdentityProvider) =>
    run(
      `toggle:${p.id}`,
      async () => {
        await socialApi.update(p.id, { enabled: !p.enabled });
        await loaded.reload();
      },
      `${p.name} is ${p.enabled ? "turned off" : "turned on"}.`,
    );
  return (
    <Card id="sign-in-providers" title="Sign-in providers">
      {loaded.error ? <p class="form-error">{loaded.error}</p> : null}
      <p class="muted">
        People sign in with an account they already have elsewhere. A first sign-in makes an account only while registration is open; existing accounts link
        from their account page.
      </p>
      <ul class="rows" aria-label="Sign-in providers">
        {(loaded.data ?? []).map((p) => (
          <li key={p.id} class="row">
            <div class="grow">
              <strong>{p.name}</strong> <span class="badge">{p.kind === "oidc" ? "OpenID Connect" : "GitHub"}</span>{" "}
              {p.enabled ? <span class="badge badge-success">On</span> : <span class="badge">Off</span>}
              <div class="muted small">
                {p.kind === "oidc" ? p.issuer : p.web_url} · {p.linked_accounts} linked
              </div>
              <CopyField label={`Callback URL for ${p.name}`} value={p.callback_url} />
            </div>
            <Button variant="secondary" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
              Edit
            </Button>
            <Button variant="secondary" busy={busy === `toggle:${p.id}`} onClick={() => void toggle(p)}>
              {p.enabled ? "Turn off" : "Turn on"}
            </Button>
            <Button variant="danger" onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {loaded.data && loaded.data.length === 0 ? <p class="empty-inline">No provider yet: people sign in with a password or a passkey.</p> : null}
      <AddProviderForm onAdded={loaded.reload} />
      {editing ? (
        <EditProviderDialog
          provider={editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await loaded.reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ""}?`}
        confirmLabel="Remove"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await socialApi.remove((removing as IdentityProvider).id);
          setRemoving(null);
          await loaded.reload();
        }}
      >
        <p>
          Its {removing?.linked_accounts ?? 0} linked account(s) are unlinked. People who had no password or passkey then need an administrator to reset their
          password.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
