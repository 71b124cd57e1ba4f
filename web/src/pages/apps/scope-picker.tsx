import { useState } from "preact/hooks";
import { isAdminScope, KNOWN_SCOPES, OIDC_FIELDS } from "../../api/apps.ts";
import { Checkbox } from "../../components/field.tsx";
import { scopeSentence } from "../../lib/scope-text.ts";

const SIGN_IN = ["openid", "profile", "email", "offline_access"];
const ONE_TEAM = KNOWN_SCOPES.filter((s) => s.startsWith("team:"));
const ACCOUNT = KNOWN_SCOPES.filter((s) => !SIGN_IN.includes(s) && !s.startsWith("team:") && !isAdminScope(s));
const ADMIN = KNOWN_SCOPES.filter(isAdminScope);

/** What each extra ID token claim holds, and the scope it comes with (spec 1 section 2.5). */
const FIELD_HINTS: Record<(typeof OIDC_FIELDS)[number], string> = {
  teams: "The user's teams, roles and groups (with teams:read)",
  apps: "The user's registered apps (with apps:read)",
  domains: "The user's custom domains (with domains:read)",
  gpg_keys: "The user's GPG keys (with gpg:read)",
  social_accounts: "The user's linked social accounts (with social:read)",
  role: "Whether the user is an admin of this site",
};

type ListProps = { values: string[]; onChange: (values: string[]) => void };

const toggle = (values: string[], value: string, on: boolean) => (on ? [...values, value] : values.filter((v) => v !== value));

function ScopeGroup({ legend, scopes, values, onChange }: ListProps & { legend: string; scopes: readonly string[] }) {
  return (
    <fieldset class="scopes">
      <legend>{legend}</legend>
      {scopes.map((scope) => (
        <Checkbox
          key={scope}
          label={scope}
          hint={scopeSentence(scope)}
          checked={values.includes(scope)}
          onChange={(on) => onChange(toggle(values, scope, on))}
        />
      ))}
    </fieldset>
  );
}

/** The scopes the app may ask for, grouped; administrator scopes folded away. */
export function ScopePicker({ values, onChange, error }: ListProps & { error?: string }) {
  const adminChosen = values.filter(isAdminScope).length;
  // Open at first when the app already has some; afterwards the user opens and closes it.
  const [openAtFirst] = useState(adminChosen > 0);
  return (
    <div class="scope-picker">
      <ScopeGroup legend="Sign-in" scopes={SIGN_IN} values={values} onChange={onChange} />
      <ScopeGroup legend="The user's account" scopes={ACCOUNT} values={values} onChange={onChange} />
      <ScopeGroup legend="One team, chosen by the user when they allow the app" scopes={ONE_TEAM} values={values} onChange={onChange} />
      <details class="disclosure" open={openAtFirst}>
        <summary>Administrator scopes{adminChosen ? ` (${adminChosen} allowed)` : ""}: only ever granted by an admin of this site</summary>
        <ScopeGroup legend="Administration" scopes={ADMIN} values={values} onChange={onChange} />
      </details>
      {error ? (
        <p class="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Extra claims in the app's ID tokens. */
export function OidcFieldsPicker({ values, onChange }: ListProps) {
  return (
    <fieldset class="scopes">
      <legend>Extra ID token claims</legend>
      {OIDC_FIELDS.map((field) => (
        <Checkbox key={field} label={field} hint={FIELD_HINTS[field]} checked={values.includes(field)} onChange={(on) => onChange(toggle(values, field, on))} />
      ))}
    </fieldset>
  );
}
