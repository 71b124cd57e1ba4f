import { useState } from "preact/hooks";
import { type IdentityProvider, socialApi } from "../../api/social.ts";
import { Checkbox, TextField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";
import { FormError } from "../../components/form-error.tsx";

/**
 * Changes a provider in place, keeping its links: name, client id, a new client secret (write-only:
 * empty keeps it), scopes, its URLs and whether its verified emails are trusted. The slug and
 * kind stay: the callback URL registered at the provider names them.
 */
export function EditProviderDialog({ provider, onClose, onSaved }: { provider: IdentityProvider; onClose: () => void; onSaved: () => Promise<void> }) {
  const [form, setForm] = useState({
    name: provider.name,
    client_id: provider.client_id,
    client_secret: "",
    scopes: provider.scopes,
    issuer: provider.issuer,
    web_url: provider.web_url,
    api_url: provider.api_url,
    trust_email: provider.trust_email,
  });
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm({ ...form, [key]: value });
  const oidc = provider.kind === "oidc";
  const save = async () => {
    const { client_secret, issuer, web_url, api_url, ...rest } = form;
    await socialApi.update(provider.id, { ...rest, ...(client_secret ? { client_secret } : {}), ...(oidc ? { issuer } : { web_url, api_url }) });
    await onSaved();
  };
  return (
    <FormDialog open title={`Edit ${provider.name}`} confirmLabel="Save" onSubmit={save} onError={setError} onClose={onClose}>
      <TextField label="Name" value={form.name} onValue={(v) => set("name", v)} />
      {oidc ? (
        <TextField label="Issuer URL" type="url" value={form.issuer} onValue={(v) => set("issuer", v)} />
      ) : (
        <>
          <TextField label="Web URL" type="url" value={form.web_url} onValue={(v) => set("web_url", v)} />
          <TextField label="API URL" type="url" value={form.api_url} onValue={(v) => set("api_url", v)} />
        </>
      )}
      <TextField label="Client ID" value={form.client_id} onValue={(v) => set("client_id", v)} autocomplete="off" />
      <TextField
        label="New client secret"
        type="password"
        value={form.client_secret}
        onValue={(v) => set("client_secret", v)}
        autocomplete="new-password"
        hint={provider.client_secret_set ? "A secret is stored; leave empty to keep it." : "None stored."}
      />
      <TextField label="Scopes" value={form.scopes} onValue={(v) => set("scopes", v)} />
      <Checkbox label="Trust the provider's verified emails" checked={form.trust_email} onChange={(v) => set("trust_email", v)} />
      <FormError message={error} />
    </FormDialog>
  );
}
