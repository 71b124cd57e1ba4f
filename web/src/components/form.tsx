import type { ComponentChildren } from "preact";

type Props = { onSubmit: () => void; id?: string; class?: string; children: ComponentChildren };

/** A form that validates in our code, not the browser's, and submits through `onSubmit` (Enter works). */
export function Form({ onSubmit, children, ...rest }: Props) {
  return (
    <form
      {...rest}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
