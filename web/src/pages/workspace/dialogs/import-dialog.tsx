import { useEffect, useId, useState } from "preact/hooks";
import { useSubmit } from "../../../lib/use-submit.ts";
import type { ExportFormat } from "../../../api/workspace.ts";
import { BusyStatus } from "../../../components/busy-status.tsx";
import { Button } from "../../../components/button.tsx";
import { Dialog } from "../../../components/dialog.tsx";
import { Checkbox, TextField } from "../../../components/field.tsx";
import { Form } from "../../../components/form.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { toast } from "../../../lib/toasts.ts";
import { RadioGroup } from "../settings/radio-group.tsx";
import { type ImportResult, runImport } from "./import-request.ts";
import { ImportSource } from "./import-source.tsx";

type Props = {
  open: boolean;
  teamId: string;
  /** The open set, offered as the target; null imports as a new set only. */
  setId: string | null;
  onClose: () => void;
  onImported: (result: ImportResult) => void;
};

type Target = "set" | "new";

/** Spec 2 section 4.1 import: Markdown, JSON or YAML into the open set or as a new set. */
export function ImportDialog({ open, teamId, setId, onClose, onImported }: Props) {
  const formId = useId();
  const { busy, error, setError, submit } = useSubmit();
  const [target, setTarget] = useState<Target>(setId ? "set" : "new");
  const [format, setFormat] = useState<ExportFormat>("md");
  const [content, setContent] = useState("");
  const [includeComments, setIncludeComments] = useState(false);
  const [mode, setMode] = useState<"append" | "replace">("append");
  const [insertAt, setInsertAt] = useState<"top" | "bottom">("bottom");
  const [setName, setSetName] = useState("");
  // Each opening starts clean: a half-finished import should not linger into the next one.
  useEffect(() => {
    if (!open) return;
    setTarget(setId ? "set" : "new");
    setFormat("md");
    setContent("");
    setIncludeComments(false);
    setMode("append");
    setInsertAt("bottom");
    setSetName("");
    setError(null);
  }, [open, setId]);
  const intoSetId = target === "set" ? setId : null;

  // A failure shows the server's exact text, such as "Failed to parse import content" (spec 2 section 4.1).
  const run = () =>
    submit(async () => {
      const result = await runImport({ teamId, intoSetId, format, content, includeComments, mode, insertAt, setName });
      toast(`Imported ${result.imported} ${result.imported === 1 ? "todo" : "todos"}.`, "success");
      onImported(result);
    });

  return (
    <Dialog
      open={open}
      title="Import todos"
      onClose={onClose}
      actions={
        <>
          <BusyStatus busy={busy} label="Import progress">
            Importing… A long list can take a few seconds.
          </BusyStatus>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={busy} variant={intoSetId && mode === "replace" ? "danger" : "primary"}>
            {intoSetId && mode === "replace" ? "Replace todos" : "Import"}
          </Button>
        </>
      }
    >
      <Form id={formId} class="wss-import" onSubmit={() => void run()}>
        {/* Nothing changes under a running import. */}
        <fieldset class="plain" disabled={busy}>
          <ImportSource format={format} content={content} onFormat={setFormat} onContent={setContent} />
          <Checkbox
            label="Import comments"
            hint="When the content carries them, as exports made with comments do."
            checked={includeComments}
            onChange={setIncludeComments}
          />
          {setId ? (
            <RadioGroup
              legend="Import into"
              value={target}
              onValue={setTarget}
              options={[
                { value: "set", label: "This set" },
                { value: "new", label: "A new set" },
              ]}
            />
          ) : null}
          {intoSetId ? (
            <>
              <RadioGroup
                legend="Existing todos"
                value={mode}
                onValue={setMode}
                options={[
                  { value: "append", label: "Keep them and add the imported todos" },
                  { value: "replace", label: "Replace them", hint: "Deletes every todo of this set first. This cannot be undone." },
                ]}
              />
              {mode === "append" ? (
                <RadioGroup
                  legend="Add imported todos at"
                  value={insertAt}
                  onValue={setInsertAt}
                  options={[
                    { value: "bottom", label: "The bottom" },
                    { value: "top", label: "The top" },
                  ]}
                />
              ) : null}
            </>
          ) : (
            <TextField
              label="Set name"
              value={setName}
              onValue={setSetName}
              autocomplete="off"
              hint="Optional: leave empty for the name in a JSON or YAML file; a Markdown import is called Imported Set."
            />
          )}
        </fieldset>
        <FormError message={error} />
      </Form>
    </Dialog>
  );
}
