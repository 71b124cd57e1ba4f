import { useState } from "preact/hooks";
import { type ForwardAuthRule, forwardAuthApi, type RuleChoice } from "../../api/forward-auth.ts";
import { Checkbox, TextField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";
import { FormError } from "../../components/form-error.tsx";
import { errorsOf, formOf, HEADER_DEFAULTS, type HeaderKey, inputOf, type RuleForm, type RuleFormErrors } from "./forward-auth-rule-form.ts";

type Props = {
  /** The rule to change; absent: a new one (`start` fills it, such as the host of a catalog entry). */
  rule?: ForwardAuthRule;
  start?: Partial<ForwardAuthRule>;
  choices: { teams: RuleChoice[]; groups: RuleChoice[] };
  onClose: () => void;
  onSaved: (rule: ForwardAuthRule) => Promise<void> | void;
};

const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
const HOST_HINT = "The app's host name, with :port if the rule is for one port only; *.home.example covers every host below home.example.";
const HEADER_LABELS: Record<HeaderKey, string> = { user: "Username header", email: "Email header", name: "Name header", groups: "Groups header" };

/** Adds or changes a forward-auth rule; the API's refusal is shown beside the field it names. */
export function RuleDialog({ rule, start, choices, onClose, onSaved }: Props) {
  const [form, setForm] = useState<RuleForm>(() => formOf(rule ?? start));
  const [errors, setErrors] = useState<RuleFormErrors>({});
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  // The rule's text fields: each shows the API's refusal that names it.
  const text = (key: "host" | "paths" | "methods" | "bypass", label: string, placeholder: string, hint: string) => (
    <TextField label={label} value={form[key]} onValue={(v) => set(key, v)} error={errors[key]} placeholder={placeholder} hint={hint} autocomplete="off" />
  );
  const save = async () => {
    setErrors({});
    const input = inputOf(form);
    await onSaved(rule ? await forwardAuthApi.update(rule.id, input) : await forwardAuthApi.create(input));
  };
  return (
    <FormDialog
      open
      title={rule ? `Edit the rule for ${rule.host}` : "Add a forward-auth rule"}
      confirmLabel={rule ? "Save" : "Add rule"}
      onSubmit={save}
      onError={(message) => setErrors(errorsOf(message))}
      onClose={onClose}
    >
      {text("host", "Host", "media.home.example", HOST_HINT)}
      {text("paths", "Path prefixes (optional)", "/admin /settings", "Empty: every path. Separated by spaces; /media covers /media and /media/…, not /mediax.")}
      {text("methods", "Methods (optional)", "GET POST", "Empty: every method.")}
      <fieldset class={`group-editor${errors.allow ? " field-invalid" : ""}`}>
        <legend>Who may pass</legend>
        <Checkbox label="Everyone signed in" checked={form.everyone} onChange={(v) => set("everyone", v)} />
        {form.everyone ? null : (
          <>
            <Checkbox label="Administrators of this site" checked={form.admins} onChange={(v) => set("admins", v)} />
            {(["teams", "groups"] as const).flatMap((kind) =>
              choices[kind].map((c) => (
                <Checkbox
                  key={c.value}
                  label={`Members of ${kind === "teams" ? "team" : "group"} ${c.label}`}
                  checked={form[kind].includes(c.value)}
                  onChange={(on) => set(kind, toggle(form[kind], c.value, on))}
                />
              )),
            )}
            <p class="field-hint">Any of those chosen passes. With none, only the bypass paths pass.</p>
          </>
        )}
        {errors.allow ? (
          <p class="field-error" role="alert">
            {errors.allow}
          </p>
        ) : null}
      </fieldset>
      <Checkbox
        label="Require a second factor"
        checked={form.require_mfa}
        onChange={(v) => set("require_mfa", v)}
        hint="People who signed in with a password alone sign in again with their authenticator app or passkey."
      />
      {text(
        "bypass",
        "Bypass paths (optional)",
        "/api /health",
        "Pass with no sign-in and no identity headers, for example an API the app protects with its own key.",
      )}
      <details class="disclosure" open={Boolean(errors.headers) || Object.values(form.headers).some(Boolean)}>
        <summary>Header names (optional)</summary>
        {(Object.keys(HEADER_DEFAULTS) as HeaderKey[]).map((key) => (
          <TextField
            key={key}
            label={HEADER_LABELS[key]}
            value={form.headers[key]}
            onValue={(v) => set("headers", { ...form.headers, [key]: v })}
            placeholder={HEADER_DEFAULTS[key]}
          />
        ))}
        <p class="field-hint">Empty: {Object.values(HEADER_DEFAULTS).join(", ")}. The proxy's configuration names the defaults.</p>
        <FormError message={errors.headers} />
      </details>
      <FormError message={errors.form} />
    </FormDialog>
  );
}
