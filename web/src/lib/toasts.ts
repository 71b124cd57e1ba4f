import { signal } from "@preact/signals";

export type Toast = { id: number; kind: "info" | "success" | "error"; text: string };

/** The messages on screen; the Toaster component (components/toast.tsx) draws them. */
export const toasts = signal<Toast[]>([]);
let next = 1;

/** Shows a short message for a few seconds; errors stay until dismissed. */
export function toast(text: string, kind: Toast["kind"] = "info"): void {
  const id = next++;
  // The newest few only: a burst of confirmations should not cover the page.
  toasts.value = [...toasts.value, { id, kind, text }].slice(-3);
  if (kind !== "error") setTimeout(() => dismiss(id), 5000);
}

export function dismiss(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}
