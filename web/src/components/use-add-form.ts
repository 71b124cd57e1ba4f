import { useState } from "preact/hooks";

/** A message per refused field, and `form` for a refusal that belongs to no field. */
export type FormErrors<F> = Partial<Record<keyof F | "form", string>>;

type Options<F, R> = {
  /** The fields' first values, and what they return to after a success. */
  initial: () => F;
  /** Checks in the browser: a message per refused field; nothing is sent while there is one. */
  check?: (values: F) => FormErrors<F>;
  /** Sends the values through an API client; a throw is a refusal. */
  send: (values: F) => Promise<R>;
  /** Fields that keep their value after a success (a chosen role, an expiry). */
  keep?: readonly (keyof F)[];
  /** Where a refusal is shown: beside a field, or under the form (the default). */
  refusalAt?: keyof F | "form" | ((message: string) => keyof F | "form");
  /** The text of a refusal; the error's message by default. */
  refusalText?: (error: unknown) => string;
  /** Runs after the reset, while still busy: reloading the list the new item joins. */
  done?: (result: R) => unknown;
};

export type AddFormState<F> = {
  values: F;
  set: <K extends keyof F>(key: K, value: F[K]) => void;
  /** A field's value, setter and message, to spread on a TextField or SelectField. */
  field: <K extends keyof F>(key: K) => { value: F[K]; onValue: (value: F[K]) => void; error: string | undefined };
  errors: FormErrors<F>;
  busy: boolean;
  submit: () => Promise<void>;
};

/**
 * The state of a form that adds one thing (an invitation, a provider, a member): field values,
 * the browser's checks and the server's refusal as messages, busy while sending, and a reset of
 * the fields after a success so the next one can be typed.
 */
export function useAddForm<F extends object, R>(options: Options<F, R>): AddFormState<F> {
  const [values, setValues] = useState(options.initial);
  const [errors, setErrors] = useState<FormErrors<F>>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof F>(key: K, value: F[K]) => setValues((v) => ({ ...v, [key]: value }));
  const field = <K extends keyof F>(key: K) => ({ value: values[key], onValue: (value: F[K]) => set(key, value), error: errors[key] });
  const submit = async () => {
    const { check, send, keep = [], refusalAt = "form", refusalText = (e) => (e as Error).message, done } = options;
    const found = check?.(values) ?? {};
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      const result = await send(values);
      const fresh = options.initial();
      for (const key of keep) fresh[key] = values[key];
      setValues(fresh);
      await done?.(result);
    } catch (e) {
      const message = refusalText(e);
      setErrors({ [typeof refusalAt === "function" ? refusalAt(message) : refusalAt]: message } as FormErrors<F>);
    } finally {
      setBusy(false);
    }
  };
  return { values, set, field, errors, busy, submit };
}
