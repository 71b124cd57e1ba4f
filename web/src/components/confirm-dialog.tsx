import type { ComponentChildren } from "preact";
import { FormDialog } from "./form-dialog.tsx";
import { toast } from "../lib/toasts.ts";

type Props = {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  children: ComponentChildren;
};

/** Asks before a destructive action; the action's error is shown and the dialog stays open. */
export function ConfirmDialog({ danger = true, onConfirm, children, ...rest }: Props) {
  return (
    <FormDialog {...rest} danger={danger} onSubmit={onConfirm} onError={(message) => toast(message, "error")}>
      {children}
    </FormDialog>
  );
}
