import { ADMIN_TOKEN_SCOPES, meApi, TOKEN_SCOPES } from "../../api/me.ts";
import { AddForm } from "../../components/add-form.tsx";
import { Checkbox, SelectField, TextField } from "../../components/field.tsx";
import { useAddForm } from "../../components/use-add-form.ts";

const EXPIRY = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "Never" },
];

type Props = { isAdmin: boolean; onCreated: (secret: string) => void };

/** A new personal access token: a name, its scopes and when it expires. */
export function TokenForm({ isAdmin, onCreated }: Props) {
  const form = useAddForm({
    initial: () => ({ name: "", scopes: ["profile"], expiry: "90" }),
    check: ({ name, scopes }) => ({
      ...(name.trim() ? {} : { name: "Name the token after what will use it." }),
      ...(scopes.length ? {} : { scopes: "Choose at least one scope." }),
    }),
    send: ({ name, scopes, expiry }) => meApi.createToken({ name: name.trim(), scopes, expires_in_days: expiry === "never" ? null : Number(expiry) }),
    keep: ["scopes", "expiry"],
    done: ({ secret }) => onCreated(secret),
  });
  const { values, set, errors } = form;
  const offered: readonly string[] = isAdmin ? [...TOKEN_SCOPES, ...ADMIN_TOKEN_SCOPES] : TOKEN_SCOPES;

  return (
    <AddForm form={form} title="New token" submitLabel="Create token">
      <TextField label="Token name" {...form.field("name")} autocomplete="off" placeholder="e.g. backup script" />
      <fieldset class="scopes" aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
        <legend>Scopes</legend>
        {offered.map((scope) => (
          <Checkbox
            key={scope}
            label={scope}
            checked={values.scopes.includes(scope)}
            onChange={(on) => set("scopes", on ? [...values.scopes, scope] : values.scopes.filter((s) => s !== scope))}
          />
        ))}
      </fieldset>
      {errors.scopes ? (
        <p class="field-error" id="token-scopes-error" role="alert">
          {errors.scopes}
        </p>
      ) : null}
      <SelectField label="Expires after" {...form.field("expiry")} options={EXPIRY} />
    </AddForm>
  );
}
