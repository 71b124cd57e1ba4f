import { useState } from "preact/hooks";
import { type ExportFormat, workspaceApi } from "../../../api/workspace.ts";
import { BusyStatus } from "../../../components/busy-status.tsx";
import { Button } from "../../../components/button.tsx";
import { copyText } from "../../../components/copy-field.tsx";
import { Dialog } from "../../../components/dialog.tsx";
import { Checkbox, Field, SelectField } from "../../../components/field.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { useLoad } from "../../../lib/use-load.ts";
import { downloadText } from "./download.ts";
import { FORMAT_OPTIONS, MIME_TYPES } from "./formats.ts";

type Props = { open: boolean; teamId: string; setId: string; onClose: () => void };

/** Spec 2 section 4.1 export: the set as Markdown, JSON or YAML, to copy or download. */
export function ExportDialog({ open, teamId, setId, onClose }: Props) {
  const [format, setFormat] = useState<ExportFormat>("md");
  const [includeComments, setIncludeComments] = useState(false);
  // Fetched only while open, and again whenever the options change.
  const exported = useLoad(
    () => (open ? workspaceApi.exportSet(teamId, setId, format, includeComments) : Promise.resolve(undefined)),
    [open, teamId, setId, format, includeComments],
  );
  const result = exported.data;
  const current = result && result.format === format ? result : undefined;

  return (
    <Dialog
      open={open}
      title="Export set"
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button variant="secondary" disabled={!current} onClick={() => current && void copyText(current.content)}>
            Copy
          </Button>
          <Button disabled={!current} onClick={() => current && downloadText(current.fileName, current.content, MIME_TYPES[current.format])}>
            Download
          </Button>
        </>
      }
    >
      <div class="wss-export">
        <SelectField label="Format" value={format} options={FORMAT_OPTIONS} onValue={setFormat} />
        <Checkbox label="Include comments" checked={includeComments} onChange={setIncludeComments} />
        <BusyStatus busy={exported.loading} label="Export progress">
          Exporting…
        </BusyStatus>
        <FormError message={exported.error} />
        <Field label="Exported content" hint={current ? `Downloads as ${current.fileName}.` : undefined}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              class="input mono wss-code"
              rows={12}
              readOnly
              spellcheck={false}
              value={current?.content ?? ""}
              aria-describedby={describedBy}
              aria-busy={exported.loading}
            />
          )}
        </Field>
      </div>
    </Dialog>
  );
}
