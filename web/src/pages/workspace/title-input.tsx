import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";

type Props = {
  label: string;
  placeholder?: string;
  initial?: string;
  error?: string | null;
  /** Rejects to keep the input open (the error is shown by the caller or a toast). */
  onSubmit: (title: string) => Promise<unknown>;
  onCancel?: () => void;
  /** Stays open and empties after a success (the "add another" input at the top). */
  keepOpen?: boolean;
  autoFocus?: boolean;
};

/** A one-line title editor: Enter saves, Escape cancels. */
export function TitleInput({ label, placeholder, initial = "", error, onSubmit, onCancel, keepOpen = false, autoFocus = false }: Props) {
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [ownError, setOwnError] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  // The "add another" input never waits: each title is queued, sent in the order typed.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const id = useId();
  // Before the browser paints or takes the next key: that key belongs in this field.
  useLayoutEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, []);
  const submit = async () => {
    if (busy) return;
    const title = value.trim();
    if (!title) return setOwnError("Title is required");
    setOwnError(null);
    if (keepOpen) {
      // Emptied at once and left editable, so the next title can be typed while this one is
      // saved; a refused one comes back into an empty input.
      setValue("");
      queue.current = queue.current
        .then(() => onSubmit(title))
        .catch((e: Error) => {
          if (error === undefined) setOwnError(e.message);
          setValue((now) => now || title);
        });
      return;
    }
    setBusy(true);
    try {
      await onSubmit(title);
    } catch (e) {
      if (error === undefined) setOwnError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const shown = error ?? ownError;
  return (
    <form
      class="ws-title-input"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label class="visually-hidden" for={id}>
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        class="input"
        value={value}
        placeholder={placeholder ?? label}
        maxLength={500}
        // Read-only, not disabled, while saving: a disabled field drops the focus to <body>, where the
        // next keys would be page shortcuts (issue 42: a stray top-level todo).
        readOnly={busy}
        aria-busy={busy}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : undefined}
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && onCancel) {
            e.preventDefault();
            onCancel();
          }
        }}
      />
      {shown ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {shown}
        </p>
      ) : null}
    </form>
  );
}

/** Renames a todo in place: saves only a changed title, closes on success or Escape. */
export function TitleEditor({ title, rename, close }: { title: string; rename: (title: string) => Promise<boolean>; close: () => void }) {
  return (
    <div class="grow">
      <TitleInput
        label={`Title of ${title}`}
        initial={title}
        autoFocus
        onSubmit={async (next) => {
          if (next !== title && !(await rename(next))) throw new Error("The title was not saved.");
          close();
        }}
        onCancel={close}
      />
    </div>
  );
}
