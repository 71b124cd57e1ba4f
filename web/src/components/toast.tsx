import { dismiss, toasts } from "../lib/toasts.ts";

export function Toaster() {
  return (
    <div class="toaster" aria-live="polite" aria-relevant="additions">
      {toasts.value.map((t) => (
        <div key={t.id} class={`toast toast-${t.kind}`} role={t.kind === "error" ? "alert" : "status"}>
          <span>{t.text}</span>
          <button type="button" class="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
