import { useEffect, useState } from "preact/hooks";
import { adminApi, type Registration, type SiteConfig } from "../../api/admin.ts";
import type { CaptchaProvider } from "../../api/two-factor.ts";
import { Card } from "../../components/card.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { Checkbox, NumberField, SelectField, TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { useLoad } from "../../lib/use-load.ts";
import { FormError } from "../../components/form-error.tsx";

const PROVIDERS: { value: CaptchaProvider; label: string }[] = [
  { value: "none", label: "None" },
  { value: "pow", label: "Proof of work (built in, no third party)" },
  { value: "turnstile", label: "Cloudflare Turnstile" },
  { value: "hcaptcha", label: "hCaptcha" },
  { value: "recaptcha", label: "Google reCAPTCHA v2" },
];

const REGISTRATION: { value: Registration; label: string }[] = [
  { value: "invite", label: "With an invitation" },
  { value: "open", label: "Open to anyone" },
  { value: "closed", label: "Closed" },
];

/** Instance-wide settings: who may register, and how strict two-factor confirmation is. */
export function SiteSettingsSection() {
  const loaded = useLoad(() => adminApi.config());
  const [form, setForm] = useState<SiteConfig | null>(null);
  // Write-only: empty keeps the stored secret.
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (loaded.data) setForm(loaded.data);
  }, [loaded.data]);

  if (!form)
    return (
      <Card id="site-settings" title="Site settings">
        {loaded.error ? <p class="form-error">{loaded.error}</p> : <p class="muted">Loading…</p>}
      </Card>
    );
  const set = <K extends keyof SiteConfig>(key: K, value: SiteConfig[K]) => setForm({ ...form, [key]: value });

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const { captcha_secret_set: _, ...settings } = form;
      setForm(await adminApi.updateConfig({ ...settings, ...(secret ? { captcha_secret: secret } : {}) }));
      setSecret("");
      toast("Site settings saved.", "success");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard id="site-settings" title="Site settings" submitLabel="Save settings" busy={busy} onSubmit={() => void save()}>
      <SelectField
        label="Registration"
        value={form.registration}
        options={REGISTRATION}
        onValue={(v) => set("registration", v)}
        hint="Invitations work in every mode."
      />
      <NumberField
        label="Sudo mode (minutes)"
        hint="How long a confirmed second factor is remembered for later confirmations; 0 turns it off."
        min={0}
        max={1440}
        value={form.sudo_mode_ttl_minutes}
        onValue={(v) => set("sudo_mode_ttl_minutes", v)}
      />
      <Checkbox
        label="Require a CAPTCHA for two-factor confirmations"
        checked={form.require_captcha_for_2fa}
        onChange={(v) => set("require_captcha_for_2fa", v)}
      />
      <SelectField
        label="CAPTCHA provider"
        value={form.captcha_provider}
        options={PROVIDERS}
        onValue={(v) => set("captcha_provider", v)}
        hint="Used when the box above is ticked, or when an app asks for it on one confirmation. None turns the gate off everywhere."
      />
      {form.captcha_provider === "pow" ? (
        <NumberField
          label="Proof-of-work difficulty (bits)"
          hint="Each step doubles the work: 18 takes a phone about a second or two."
          min={8}
          max={26}
          value={form.pow_difficulty}
          onValue={(v) => set("pow_difficulty", v)}
        />
      ) : null}
      {form.captcha_provider !== "none" && form.captcha_provider !== "pow" ? (
        <>
          <TextField label="Site key" value={form.captcha_site_key} onValue={(v) => set("captcha_site_key", v.trim())} autocomplete="off" />
          <TextField
            label="Secret key"
            type="password"
            value={secret}
            onValue={setSecret}
            autocomplete="new-password"
            hint={form.captcha_secret_set ? "A secret is stored. Leave empty to keep it." : "No secret stored yet: confirmations will fail until one is."}
          />
          <TextField
            label="Verify URL (optional)"
            type="url"
            value={form.captcha_verify_url}
            onValue={(v) => set("captcha_verify_url", v)}
            autocomplete="off"
            hint="Leave empty for the provider's own endpoint; set it for a compatible self-hosted service (https only)."
          />
        </>
      ) : null}
      <Checkbox
        label="Admin APIs need two-factor sign-in"
        hint="Access tokens for the admin API must come from a sign-in with a second factor."
        checked={form.admin_requires_mfa}
        onChange={(v) => set("admin_requires_mfa", v)}
      />
      <FormError message={error} />
    </FormCard>
  );
}
