import { Button } from "../../../components/button.tsx";
import { Field } from "../../../components/field.tsx";
import { accentVariants } from "../../../lib/contrast.ts";
import { colorToHex, isCssColor } from "./color.ts";

type Props = { value: string; onValue: (color: string) => void; disabled?: boolean; error?: string | null };

/**
 * Spec 3 section 2.3 accent_color: a picker for convenience, free text for any CSS color, and a
 * live swatch; empty means the default theme color.
 */
export function AccentColorField({ value, onValue, disabled, error }: Props) {
  const valid = value.trim() === "" || isCssColor(value);
  const chosen = colorToHex(value);
  const hex = chosen ?? "#2a64cc";
  return (
    <Field
      label="Accent color"
      error={error ?? (valid ? null : "The browser does not read this as a color.")}
      hint={
        <>
          Any CSS color, such as #0f766e, teal or hsl(175 77% 26%). Leave empty for the default.
          {chosen ? readabilityNote(chosen) : null}
        </>
      }
    >
      {({ id, describedBy, invalid }) => (
        <div class="input-row wss-color-row">
          <span
            class={`wss-swatch${value.trim() && valid ? "" : " wss-swatch-default"}`}
            style={value.trim() && valid ? { background: value.trim() } : undefined}
            role="img"
            aria-label={value.trim() && valid ? `Preview of ${value.trim()}` : "Default accent color"}
          />
          <input
            type="color"
            class="wss-color-picker"
            value={hex}
            disabled={disabled}
            aria-label="Pick an accent color"
            onInput={(e) => onValue(e.currentTarget.value)}
          />
          <input
            id={id}
            class="input mono"
            value={value}
            placeholder="Default"
            autocomplete="off"
            spellcheck={false}
            disabled={disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid || !valid}
            onInput={(e) => onValue(e.currentTarget.value)}
          />
          {value && !disabled ? (
            <Button variant="secondary" onClick={() => onValue("")}>
              Use default
            </Button>
          ) : null}
        </div>
      )}
    </Field>
  );
}

/** Says where the accent is shown lighter or darker than chosen, so text keeps 4.5:1 (issue 42). */
function readabilityNote(hex: string): string | null {
  const { light, dark } = accentVariants(hex);
  const where = [light.adjusted ? `as ${light.accent} on light backgrounds` : "", dark.adjusted ? `as ${dark.accent} in dark mode` : ""].filter(Boolean);
  return where.length ? ` To keep text readable (4.5:1 contrast), it is shown ${where.join(" and ")}.` : null;
}
