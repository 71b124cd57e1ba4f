import { useState } from "preact/hooks";
import { ADMIN_TOKEN_SCOPES, meApi, TOKEN_SCOPES } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { Checkbox, SelectField, TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";

const EXPIRY = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "Never" },
];

type Props = { isAdmin: boolean; onCreated: (secret: string) => void };

/** A new personal access token: a name, its scopes and when it expires. */
export function TokenForm({ isAdmin, onCreated }: Props) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["profile"]);
  const [expiry, setExpiry] = useState("90");
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const offered: readonly string[] = isAdmin ? [...TOKEN_SCOPES, ...ADMIN_TOKEN_SCOPES] : TOKEN_SCOPES;

  const create = async () => {
    const found: typeof errors = {};
    if (!name.trim()) found.name = "Name the token after what will use it.";
    if (scopes.length === 0) found.scopes = "Choose at least one scope.";
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { secret } = await meApi.createToken({ name: name.trim(), scopes, expires_in_days: expiry === "never" ? null : Number(expiry) });
      setName("");
      onCreated(secret);
    } catch (e) {
      setErrors({ form: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form onSubmit={() => void create()}>
      <h3>New token</h3>
      <TextField label="Token name" value={name} onValue={setName} autocomplete="off" error={errors.name} placeholder="e.g. backup script" />
      <fieldset class="scopes" aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
        <legend>Scopes</legend>
        {offered.map((scope) => (
          <Checkbox
            key={scope}
            label={scope}
            checked={scopes.includes(scope)}
            onChange={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
          />
        ))}
      </fieldset>
      {errors.scopes ? (
        <p class="field-error" id="token-scopes-error" role="alert">
          {errors.scopes}
        </p>
      ) : null}
      <SelectField label="Expires after" value={expiry} options={EXPIRY} onValue={setExpiry} />
      <FormError message={errors.form} />
      <div class="form-actions start">
        <Button type="submit" busy={busy}>
          Create token
        </Button>
      </div>
    </Form>
  );
}
