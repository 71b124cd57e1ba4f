import type { ComponentChildren } from "preact";

type Props<T extends string> = {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  onValue: (value: T) => void;
  /** The option's title and its line of help. */
  describe: (option: T) => { title: string; help: ComponentChildren };
};

/** One of several ways (radio cards with a title and a line of help), such as the second factor to use. */
export function Choices<T extends string>({ legend, name, options, value, onValue, describe }: Props<T>) {
  return (
    <fieldset class="choices">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class="choice">
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onValue(option)} />
          <span>
            <strong>{describe(option).title}</strong>
            <small>{describe(option).help}</small>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
