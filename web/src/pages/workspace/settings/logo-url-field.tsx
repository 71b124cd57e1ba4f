import { useEffect, useState } from "preact/hooks";
import { TextField } from "../../../components/field.tsx";

type Props = { value: string; onValue: (url: string) => void; disabled?: boolean; error?: string | null };

/** Spec 3 section 2.3 site_logo_url: the browser fetches it, so the preview is what visitors get. */
export function LogoUrlField({ value, onValue, disabled, error }: Props) {
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [value]);
  const url = value.trim();
  return (
    <div class="wss-logo">
      <TextField
        label="Logo URL"
        type="url"
        value={value}
        onValue={onValue}
        placeholder="https://…"
        disabled={disabled}
        error={error}
        hint="A publicly reachable image; leave empty to show the site name as text."
      />
      <div class="wss-logo-preview" aria-live="polite">
        {!url ? (
          <span class="muted small">No logo</span>
        ) : broken ? (
          <span class="text-danger small">The image could not be loaded.</span>
        ) : (
          <img src={url} alt="Logo preview" onError={() => setBroken(true)} />
        )}
      </div>
    </div>
  );
}
