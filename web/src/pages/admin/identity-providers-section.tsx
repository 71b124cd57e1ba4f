import { useState } from "preact/hooks";
import { type IdentityProvider, type ProviderInput, socialApi } from "../../api/social.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { Checkbox, SelectField, TextField } from "../../components/field.tsx";
import { AddForm } from "../../components/add-form.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { EditProviderDialog } from "./edit-provider-dialog.tsx";

const slugOf = (typed: string) => typed.trim().toLowerCase();

const KINDS: { value: "oidc" | "github"; label: string }[] = [
  { value: "oidc", label: "OpenID Connect (Google, Keycloak, authentik, another Cairn…)" },
  { value: "github", label: "GitHub or GitHub Enterprise" },
];

function AddProviderForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const form = useAddForm({
    initial: () => ({
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
    }),
    send: (v) => {
      const input: ProviderInput = { kind: v.kind, name: v.name, slug: slugOf(v.slug), client_id: v.client_id, trust_email: v.trust_email };
      if (v.client_secret) input.client_secret = v.client_secret;
      if (v.scopes.trim()) input.scopes = v.scopes;
      if (v.kind === "oidc") input.issuer = v.issuer;
      else Object.assign(input, v.web_url ? { web_url: v.web_url } : {}, v.api_url ? { api_url: v.api_url } : {});
      return socialApi.create(input);
    },
    done: onAdded,
  });
  const { values, field } = form;
  const github = values.kind === "github";
  const slug = slugOf(values.slug);
  return (
    <AddForm form={form} title="Add a provider" submitLabel="Add provider">
      <SelectField label="Kind" {...field("kind")} options={KINDS} />
      <TextField label="Name" {...field("name")} placeholder={github ? "GitHub" : "Google"} hint="The button says “Sign in with <name>”." />
      <TextField
        label="Slug"
        {...field("slug")}
        placeholder={github ? "github" : "google"}
        hint={
          slug
            ? `Register this callback URL at the provider: ${window.location.origin}/api/auth/social/${slug}/callback`
            : "Lowercase; part of the callback URL, fixed once added."
        }
      />
      {values.kind === "oidc" ? (
        <TextField
          label="Issuer URL"
          type="url"
          {...field("issuer")}
          placeholder="https://accounts.google.com"
          hint="Cairn reads its discovery document when you add it."
        />
      ) : (
        <>
          <TextField
            label="Web URL (optional)"
            type="url"
            {...field("web_url")}
            hint="Empty for github.com; https://github.example.com for GitHub Enterprise."
          />
          <TextField
            label="API URL (optional)"
            type="url"
            {...field("api_url")}
            hint="Empty for api.github.com; https://github.example.com/api/v3 for GitHub Enterprise."
          />
        </>
      )}
      <TextField label="Client ID" {...field("client_id")} autocomplete="off" />
      <TextField label="Client secret" type="password" {...field("client_secret")} autocomplete="new-password" />
      <TextField label="Scopes (optional)" {...field("scopes")} placeholder={github ? "read:user user:email" : "openid profile email"} />
      <Checkbox
        label="Trust the provider's verified emails"
        checked={values.trust_email}
        onChange={(v) => form.set("trust_email", v)}
        hint="New accounts then start with a verified email when the provider says it verified it."
      />
    </AddForm>
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
