import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

type Option<T extends string> = { value: T; label: string; hint?: ComponentChildren };
type Props<T extends string> = { legend: string; value: T; options: Option<T>[]; onValue: (value: T) => void; disabled?: boolean };

/**
 * Radio buttons in a fieldset with the design system's `.choices` look. A hint describes its
 * option rather than joining its name, so "WebSocket" is announced as just that.
 */
export function RadioGroup<T extends string>({ legend, value, options, onValue, disabled }: Props<T>) {
  const group = useId();
  return (
    <fieldset class="choices wss-radios" disabled={disabled}>
      <legend>{legend}</legend>
      {options.map((option) => {
        const id = `${group}-${option.value}`;
        return (
          <div key={option.value} class="choice">
            <input
              id={id}
              type="radio"
              name={group}
              value={option.value}
              checked={value === option.value}
              aria-describedby={option.hint ? `${id}-hint` : undefined}
              onChange={() => onValue(option.value)}
            />
            <span>
              <label for={id}>{option.label}</label>
              {option.hint ? <small id={`${id}-hint`}>{option.hint}</small> : null}
            </span>
          </div>
        );
      })}
    </fieldset>
  );
}
