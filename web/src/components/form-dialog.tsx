import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import { Form } from "./form.tsx";

type Props = {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  /** Runs on submit; a thrown error goes to `onError` and the dialog stays open. */
  onSubmit: () => Promise<unknown>;
  onError: (message: string) => void;
  onClose: () => void;
  children: ComponentChildren;
};

/** A dialog whose body is a form, with Cancel and a submit button that shows progress. */
export function FormDialog({ open, title, confirmLabel, danger = false, onSubmit, onError, onClose, children }: Props) {
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit();
      onClose();
    } catch (e) {
      onError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant={danger ? "danger" : "primary"} busy={busy} type="submit" form={formId}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <Form id={formId} onSubmit={() => void submit()}>
        {children}
      </Form>
    </Dialog>
  );
}
