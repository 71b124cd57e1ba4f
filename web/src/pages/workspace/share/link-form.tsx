import { useState } from "preact/hooks";
import { Button } from "../../../components/button.tsx";
import { Checkbox, TextField } from "../../../components/field.tsx";
import { Form } from "../../../components/form.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { useSubmit } from "../../../lib/use-submit.ts";
import { CAPABILITY_LABELS, type LinkDraft, OFFERED_CAPABILITIES } from "./capabilities.ts";

type Props = {
  initial: LinkDraft;
  submitLabel: string;
  /** Resolves when saved; a rejection shows the server's text under the form. */
  onSubmit: (draft: LinkDraft) => Promise<unknown>;
  onCancel?: () => void;
  /** Empties the form after a success (the create form stays for the next link). */
  resetAfter?: LinkDraft;
  /** Whether this Cairn can send mail (issue 44: email codes need it); undefined while unknown. */
  mail?: boolean;
};

/** The fields of a share link: its label, what visitors may do, and who may open it. */
export function LinkForm({ initial, submitLabel, onSubmit, onCancel, resetAfter, mail }: Props) {
  const [draft, setDraft] = useState<LinkDraft>(initial);
  const { busy, error, submit } = useSubmit();
  const set = <K extends keyof LinkDraft>(key: K, value: LinkDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const save = async () => {
    if (await submit(() => onSubmit(draft))) if (resetAfter) setDraft(resetAfter);
  };
  return (
    <Form class="share-form" onSubmit={() => void save()}>
      <TextField
        label="Name"
        hint="A label only you and your team see, for example “Fridge door”."
        value={draft.name}
        onValue={(v) => set("name", v)}
        autocomplete="off"
      />
      <fieldset class="share-caps">
        <legend>Visitors can</legend>
        {OFFERED_CAPABILITIES.map((key) => (
          <Checkbox key={key} label={CAPABILITY_LABELS[key].label} hint={CAPABILITY_LABELS[key].hint} checked={draft[key]} onChange={(v) => set(key, v)} />
        ))}
      </fieldset>
      <TextField
        label="Allowed emails"
        type="text"
        placeholder="ann@example.com, bob@example.com"
        hint="Comma-separated. Visitors must type one of these addresses to open the link; leave empty to let anyone with the link in."
        value={draft.allowedEmails}
        onValue={(v) => set("allowedEmails", v)}
        autocomplete="off"
      />
      <Checkbox
        label="Send a code to the address before the list opens"
        hint={
          mail === false && !draft.requireEmailCode
            ? "Needs mail, which is not set up on this Cairn: an administrator sets CAIRN_SMTP_URL and CAIRN_SMTP_FROM."
            : "Visitors get a one-time code by mail, so typing a listed address is not enough. Needs allowed emails."
        }
        checked={draft.requireEmailCode && draft.allowedEmails.trim() !== ""}
        disabled={draft.allowedEmails.trim() === "" || (mail === false && !draft.requireEmailCode)}
        onChange={(v) => set("requireEmailCode", v)}
      />
      <FormError message={error} />
      <div class="form-actions">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
