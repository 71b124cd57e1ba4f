import { useState } from "preact/hooks";
import type { AppInput, AuthMethod, IdTokenAlg } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Checkbox, Field, SelectField, TextField } from "../../components/field.tsx";
import { type AppFormErrors, checkAppForm, errorsFromServer, inputFromForm } from "./app-form-state.ts";
import { RedirectUrisEditor } from "./redirect-uris-editor.tsx";
import { OidcFieldsPicker, ScopePicker } from "./scope-picker.tsx";
import { Form } from "../../components/form.tsx";

/** RFC 8628 section 3.4. */
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** RFC 6749 section 4.4. */
const CLIENT_CREDENTIALS = "client_credentials";
import { FormError } from "../../components/form-error.tsx";

const AUTH_METHODS: { value: AuthMethod; label: string }[] = [
  { value: "client_secret_basic", label: "Secret in the Authorization header (client_secret_basic)" },
  { value: "client_secret_post", label: "Secret in the request body (client_secret_post)" },
];
const PRIVATE_KEY_JWT = { value: "private_key_jwt" as const, label: "Signed key assertion (private_key_jwt)" };
const PUBLIC_METHOD = { value: "none" as const, label: "None: a public client proves itself with PKCE" };
const ALGS: { value: IdTokenAlg; label: string }[] = [
  { value: "ML-DSA-65", label: "ML-DSA-65 (post-quantum): only apps whose OpenID library supports it" },
  { value: "RS256", label: "RS256: what nearly every app verifies" },
];
// Which relying parties verify which: the README's "Works with" table and test/rp.
const ALG_HINT =
  "ML-DSA-65 works only with apps whose OpenID library verifies it, such as openid-client 6 / oauth4webapi 3 (jose 6), Auth.js and oidc-client-ts 3. " +
  "Choose RS256 for Grafana, Nextcloud, Apache mod_auth_openidc, Python Authlib, express-openid-connect and most others: they refuse an ML-DSA-65 ID token and the sign-in fails.";

type Props = { initial: AppInput; submitLabel: string; onSubmit: (input: AppInput) => Promise<void> };

/** Registration and settings of an app; the server's refusals land beside the field they name. */
export function AppForm({ initial, submitLabel, onSubmit }: Props) {
  const [value, setValue] = useState<AppInput>(initial);
  const [errors, setErrors] = useState<AppFormErrors>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof AppInput>(key: K, v: AppInput[K]) => setValue((old) => ({ ...old, [key]: v }));

  const methods = value.public ? [PUBLIC_METHOD] : value.token_endpoint_auth_method === "private_key_jwt" ? [...AUTH_METHODS, PRIVATE_KEY_JWT] : AUTH_METHODS;

  const submit = async () => {
    const found = checkAppForm(value);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await onSubmit(inputFromForm(value));
    } catch (e) {
      setErrors(errorsFromServer((e as Error).message, value.redirect_uris));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form class="app-form" onSubmit={() => void submit()}>
      <TextField
        label="App name"
        value={value.name}
        onValue={(v) => set("name", v)}
        autocomplete="off"
        error={errors.name}
        hint="Shown to people when they are asked to allow the app."
      />
      <Field label="Description (optional)" error={errors.description}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            class="input"
            rows={2}
            value={value.description}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onInput={(e) => set("description", e.currentTarget.value)}
          />
        )}
      </Field>

      <h3>Client authentication</h3>
      <Checkbox
        label="Public client (no secret)"
        hint="For apps that cannot keep a secret, such as single-page and mobile apps. They must use PKCE."
        checked={value.public}
        onChange={(on) => setValue((old) => ({ ...old, public: on, token_endpoint_auth_method: on ? "none" : "client_secret_basic" }))}
      />
      <SelectField
        label="Token endpoint authentication"
        value={value.token_endpoint_auth_method}
        options={methods}
        disabled={value.public}
        onValue={(v) => set("token_endpoint_auth_method", v)}
      />
      <SelectField
        label="ID token algorithm"
        value={value.id_token_signed_response_alg}
        options={ALGS}
        hint={ALG_HINT}
        onValue={(v) => set("id_token_signed_response_alg", v)}
      />

      <RedirectUrisEditor rows={value.redirect_uris} onChange={(rows) => set("redirect_uris", rows)} rowErrors={errors.rows} error={errors.redirect_uris} />

      <h3>Allowed scopes</h3>
      <p class="field-hint">The app may ask for these and nothing else; people still choose whether to allow them.</p>
      <ScopePicker values={value.scopes} onChange={(v) => set("scopes", v)} error={errors.scopes} />
      <OidcFieldsPicker values={value.oidc_fields} onChange={(v) => set("oidc_fields", v)} />

      <Checkbox
        label="Allow sign-in on devices"
        hint="For TVs, command-line tools and other devices without a browser (RFC 8628): they show a code, and people enter it at /device."
        checked={value.grant_types.includes(DEVICE_GRANT)}
        onChange={(on) => set("grant_types", on ? [...value.grant_types, DEVICE_GRANT] : value.grant_types.filter((g) => g !== DEVICE_GRANT))}
      />

      {value.public ? null : (
        <>
          <Checkbox
            label="Let the app act on its own (service account)"
            hint="The client credentials grant: the app gets tokens for itself, with no person signed in, for its own API's scopes below."
            checked={value.grant_types.includes(CLIENT_CREDENTIALS)}
            onChange={(on) => set("grant_types", on ? [...value.grant_types, CLIENT_CREDENTIALS] : value.grant_types.filter((g) => g !== CLIENT_CREDENTIALS))}
          />
          {value.grant_types.includes(CLIENT_CREDENTIALS) ? (
            <TextField
              label="Scopes for machine access"
              value={value.client_credentials_scopes.join(" ")}
              onValue={(v) => set("client_credentials_scopes", v.split(/\s+/).filter(Boolean))}
              placeholder="backups:read backups:write"
              hint="Names of your own API's permissions, separated by spaces. Never a user, team or site scope."
            />
          ) : null}
        </>
      )}

      <h3>Signing out</h3>
      <TextField
        label="Post-logout redirect URIs"
        value={value.post_logout_redirect_uris.join(" ")}
        onValue={(v) => set("post_logout_redirect_uris", v.split(/\s+/).filter(Boolean))}
        placeholder="https://app.example.com/signed-out"
        hint="Where the app may send people back to after signing them out at Cairn; separate several with spaces."
        error={errors.post_logout_redirect_uris}
      />
      <TextField
        label="Back-channel logout URI"
        type="url"
        value={value.backchannel_logout_uri ?? ""}
        onValue={(v) => set("backchannel_logout_uri", v)}
        placeholder="https://app.example.com/backchannel-logout"
        hint="Cairn POSTs a signed logout token here whenever someone who signed in to the app signs out of Cairn (https only)."
      />

      <h3>Token security</h3>
      <Checkbox
        label="Require DPoP-bound tokens"
        hint="Every token request must carry a DPoP proof (RFC 9449), so a stolen access or refresh token is useless without the app's key."
        checked={value.dpop_bound_access_tokens}
        onChange={(v) => set("dpop_bound_access_tokens", v)}
      />
      <Checkbox
        label="Require pushed authorization requests"
        hint="The app must send its sign-in requests to the PAR endpoint first (RFC 9126) and open the authorization page with the request_uri it gets back, so nobody can alter the request in the browser."
        checked={value.require_pushed_authorization_requests}
        onChange={(v) => set("require_pushed_authorization_requests", v)}
      />

      <FormError message={errors.form} />
      <div class="form-actions start">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
