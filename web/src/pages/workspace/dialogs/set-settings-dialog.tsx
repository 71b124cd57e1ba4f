import { useEffect, useId, useState } from "preact/hooks";
import { useSubmit } from "../../../lib/use-submit.ts";
import { type TodoSet, workspaceApi } from "../../../api/workspace.ts";
import { Button } from "../../../components/button.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { Dialog } from "../../../components/dialog.tsx";
import { Checkbox, Field, TextField } from "../../../components/field.tsx";
import { Form } from "../../../components/form.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { formatTime } from "../../../lib/format.ts";
import { toast } from "../../../lib/toasts.ts";
import { isEmptyPatch } from "../settings/settings-diff.ts";
import { TimeZoneField } from "../settings/timezone-field.tsx";
import { draftOf, type SetDraft, setPatchOf } from "./set-draft.ts";
import type { SetChange } from "../store/workspace-store.ts";
import { SetPermissionsSection } from "./set-permissions-section.tsx";

type Props = {
  open: boolean;
  teamId: string;
  set: TodoSet;
  defaultTimezone: string;
  canManage: boolean;
  /** manage_settings: the per-set permission overrides. */
  canManagePermissions: boolean;
  onClose: () => void;
  /** What was saved, for the page to apply without reloading the sets. */
  onSaved: (change: SetChange) => void;
};

const lastRenewed = (at: string | null) => (at ? formatTime(at) : "never");

/** One set's settings (spec 2 section 2.1): name, layout, daily auto-renew, overrides, deletion. */
export function SetSettingsDialog({ open, teamId, set, defaultTimezone, canManage, canManagePermissions, onClose, onSaved }: Props) {
  const formId = useId();
  const { busy, error, setError, submit } = useSubmit();
  const [draft, setDraft] = useState<SetDraft>(() => draftOf(set));
  const [deleting, setDeleting] = useState(false);
  const [showPermissions, setShowPermissions] = useState(false);
  // Reset on opening only: the set list refreshes live, and that must not wipe the user's edits.
  useEffect(() => {
    if (!open) return;
    setDraft(draftOf(set));
    setError(null);
    setShowPermissions(false);
  }, [open, set.id]);
  const change = <K extends keyof SetDraft>(key: K, value: SetDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const readOnly = !canManage;

  const save = async () => {
    const patch = setPatchOf(set, draft);
    if (isEmptyPatch(patch)) return onClose();
    // A failure shows the exact server text (spec 2 section 4.1 set errors), such as a duplicate name.
    await submit(async () => {
      await workspaceApi.patchSet(teamId, set.id, patch);
      toast(`Set "${draft.name.trim()}" saved.`, "success");
      onSaved({ patch });
      onClose();
    });
  };

  return (
    <>
      <Dialog
        open={open}
        title={`Settings of ${set.name}`}
        onClose={onClose}
        actions={
          <>
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {readOnly ? "Close" : "Cancel"}
            </Button>
            {readOnly ? null : (
              <Button type="submit" form={formId} busy={busy}>
                Save
              </Button>
            )}
          </>
        }
      >
        <Form id={formId} class="wss-set-form" onSubmit={() => void save()}>
          {readOnly ? <p class="notice">Only the set's creator and people who can manage sets can change it.</p> : null}
          <TextField label="Name" value={draft.name} onValue={(v) => change("name", v)} autocomplete="off" disabled={readOnly} />
          <Checkbox
            label="Show completed todos in a separate section"
            checked={draft.splitCompleted}
            onChange={(v) => change("splitCompleted", v)}
            disabled={readOnly}
          />
          <Checkbox
            label="Renew every day"
            hint="Completed todos become incomplete again once a day, at the time below."
            checked={draft.autoRenew}
            onChange={(v) => change("autoRenew", v)}
            disabled={readOnly}
          />
          <fieldset class="wss-renew" disabled={readOnly || !draft.autoRenew}>
            <legend class="visually-hidden">Auto-renew schedule</legend>
            <Field label="Renew at" hint="Local time in the zone below; checked every 15 minutes.">
              {({ id, describedBy }) => (
                <input
                  id={id}
                  type="time"
                  class="input wss-time"
                  value={draft.renewTime}
                  aria-describedby={describedBy}
                  onInput={(e) => change("renewTime", e.currentTarget.value)}
                />
              )}
            </Field>
            <TimeZoneField
              label="Time zone"
              value={draft.timezone}
              onValue={(v) => change("timezone", v)}
              emptyLabel={`Workspace default (${defaultTimezone})`}
            />
            <p class="field-hint">Last renewed: {lastRenewed(set.lastRenewedAt)}</p>
          </fieldset>
          <FormError message={error} />
        </Form>
        {canManagePermissions ? (
          <details class="disclosure" open={showPermissions} onToggle={(e) => setShowPermissions(e.currentTarget.open)}>
            <summary>Permissions in this set</summary>
            {showPermissions ? <SetPermissionsSection teamId={teamId} setId={set.id} setName={set.name} /> : null}
          </details>
        ) : null}
        {canManage ? (
          <div class="danger-zone">
            <h3>Delete this set</h3>
            <p class="muted">All of its todos, sub-todos and comments are deleted, and its share links stop working. This cannot be undone.</p>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete set
            </Button>
          </div>
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${set.name}?`}
        confirmLabel="Delete set"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await workspaceApi.deleteSet(teamId, set.id);
          toast(`Set "${set.name}" deleted.`, "success");
          onSaved({ deleted: true });
          onClose();
        }}
      >
        <p>
          Delete <strong>{set.name}</strong> with its {set.total} {set.total === 1 ? "todo" : "todos"}?
        </p>
      </ConfirmDialog>
    </>
  );
}
