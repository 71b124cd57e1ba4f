import { useId, useRef } from "preact/hooks";
import { Button } from "./button.tsx";
import { toast } from "../lib/toasts.ts";

/** Copies text to the clipboard, telling the user whether it worked. */
export async function copyText(text: string, what = "Copied"): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} to the clipboard.`, "success");
  } catch {
    toast("The browser did not allow copying: select the text and copy it yourself.", "error");
  }
}

/** A read-only value (a secret shown once, a link) with a Copy button. */
export function CopyField({ label, value, hint, mono = true }: { label: string; value: string; hint?: string; mono?: boolean }) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="input-row">
        <input
          ref={ref}
          id={id}
          class={`input${mono ? " mono" : ""}`}
          value={value}
          readOnly
          onFocus={() => ref.current?.select()}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <Button variant="secondary" onClick={() => void copyText(value)} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </Button>
      </div>
      {hint ? (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
