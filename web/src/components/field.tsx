import type { ComponentChildren } from "preact";
import { useId, useLayoutEffect, useRef } from "preact/hooks";

type FieldProps = {
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  /** Renders the control, given the ids that tie it to its label, hint and error. */
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
};

/** A labelled form control with an optional hint and error text, announced to screen readers. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${error ? " field-invalid" : ""}`}>
      <label for={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = {
  label: string;
  type?: "text" | "url" | "password" | "email";
  placeholder?: string;
  autocomplete?: string;
  /** "numeric" for digit-only codes: phones show the number pad. */
  inputMode?: "numeric" | "text";
  /** Takes the focus when it appears (a step's first field); the HTML attribute only works on page load. */
  autoFocus?: boolean;
  disabled?: boolean;
  /** Shown and sent, not editable (an invitation's email): say why in the hint. */
  readOnly?: boolean;
  hint?: ComponentChildren;
  error?: string | null;
  value: string;
  onValue: (value: string) => void;
};

export function TextField({ label, hint, error, value, onValue, type = "text", autoFocus = false, ...rest }: TextFieldProps) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, []);
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          {...rest}
          ref={ref}
          // Preact types each input type as its own variant; these four share every attribute used here.
          type={type as "text"}
          id={id}
          class="input"
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

type CheckboxProps = { label: string; hint?: ComponentChildren; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean };

export function Checkbox({ label, hint, checked, onChange, disabled }: CheckboxProps) {
  const id = useId();
  return (
    <div class="checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label for={id}>{label}</label>
      {hint ? (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type SelectFieldProps<T extends string> = {
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  disabled?: boolean;
  value: T;
  options: { value: T; label: string }[];
  onValue: (value: T) => void;
};

export function SelectField<T extends string>({ label, hint, error, value, options, onValue, disabled }: SelectFieldProps<T>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          class="input"
          value={value}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onChange={(e) => onValue(e.currentTarget.value as T)}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

type NumberFieldProps = { label: string; hint?: ComponentChildren; min: number; max: number; value: number; onValue: (value: number) => void };

/** A whole number kept within [min, max] as it is typed; an empty field counts as `min`. */
export function NumberField({ label, hint, min, max, value, onValue }: NumberFieldProps) {
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          class="input input-number"
          type="number"
          min={min}
          max={max}
          value={value}
          aria-describedby={describedBy}
          onInput={(e) => onValue(Math.max(min, Math.min(max, Math.round(Number(e.currentTarget.value)) || min)))}
        />
      )}
    </Field>
  );
}
