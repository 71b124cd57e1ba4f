import { signal } from "@preact/signals";

type Toast = { id: number; kind: "info" | "success" | "error"; text: string };

const toasts = signal<Toast[]>([]);
let next = 1;

/** Shows a short message for a few seconds; errors stay until dismissed. */
export function toast(text: string, kind: Toast["kind"] = "info"): void {
  const id = next++;
  // The newest few only: a burst of confirmations should not cover the page.
  toasts.value = [...toasts.value, { id, kind, text }].slice(-3);
  if (kind !== "error") setTimeout(() => dismiss(id), 5000);
}

function dismiss(id: number) {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

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
