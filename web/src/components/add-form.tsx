import type { ComponentChildren } from "preact";
import { Button } from "./button.tsx";
import { Form } from "./form.tsx";
import { FormError } from "./form-error.tsx";
import type { AddFormState } from "./use-add-form.ts";

type Props<F> = {
  form: AddFormState<F>;
  submitLabel: string;
  /** A heading above the fields ("Add a source"). */
  title?: string;
  /** Fields and button on one row, under the list they add to. */
  inline?: boolean;
  /** Keeps the button off (nothing typed yet, no passkey support). */
  disabled?: boolean;
  children: ComponentChildren;
};

/**
 * The form of `useAddForm`: its fields, the refusal that belongs to no field, and a submit
 * button that shows progress. Refusals beside a field take focus (see `Form`).
 */
export function AddForm<F>({ form, submitLabel, title, inline = false, disabled, children }: Props<F>) {
  const button = (
    <Button type="submit" busy={form.busy} disabled={disabled}>
      {submitLabel}
    </Button>
  );
  return (
    <Form class={inline ? "inline-form" : undefined} onSubmit={() => void form.submit()}>
      {title ? <h3>{title}</h3> : null}
      {children}
      <FormError message={form.errors.form} />
      {inline ? button : <div class="form-actions start">{button}</div>}
    </Form>
  );
}
