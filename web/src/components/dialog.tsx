import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

type Props = { open: boolean; title: string; onClose: () => void; children: ComponentChildren; actions?: ComponentChildren };

/** A modal on the native <dialog>: focus is trapped and Escape closes it, by the browser. */
export function Dialog({ open, title, onClose, children, actions }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId} class="dialog-title">
        {title}
      </h2>
      <div class="dialog-body">{children}</div>
      {actions ? <div class="dialog-actions">{actions}</div> : null}
    </dialog>
  );
}
