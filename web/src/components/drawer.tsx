import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

type Props = { id: string; open: boolean; label: string; onClose: () => void; children: ComponentChildren };

/**
 * A side panel over the page on the native modal <dialog>: the browser traps focus inside and
 * closes it on Escape; a tap on the dimmed page beside it closes it too. Focus goes to the panel's
 * current link (or its first control) on opening, and back to what opened it on closing.
 */
export function Drawer({ id, open, label, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[aria-current='page']")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog natively; the click is the backdrop's, which keyboards never reach
    <dialog
      ref={ref}
      id={id}
      class="drawer"
      aria-label={label}
      onClose={() => {
        onClose();
        if (opener.current?.isConnected) opener.current.focus();
      }}
      // The backdrop's clicks land on the dialog itself; the panel's content covers the rest of it.
      onClick={(e) => {
        if (e.target === e.currentTarget) e.currentTarget.close();
      }}
    >
      <div class="drawer-body">{children}</div>
    </dialog>
  );
}
