import type { ExportFormat } from "../../../api/workspace.ts";
import { Field, SelectField } from "../../../components/field.tsx";
import { toast } from "../../../lib/toasts.ts";
import { FORMAT_OPTIONS, formatFromFileName } from "./formats.ts";

type Props = {
  format: ExportFormat;
  content: string;
  onFormat: (format: ExportFormat) => void;
  onContent: (content: string) => void;
};

const IMPORT_ACCEPT = ".md,.markdown,.json,.yaml,.yml,text/markdown,application/json";

/** Where the import comes from: a file read into the text box (so it can be checked), or pasted text. */
export function ImportSource({ format, content, onFormat, onContent }: Props) {
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      onContent(await file.text());
      const inferred = formatFromFileName(file.name);
      if (inferred) onFormat(inferred);
    } catch {
      toast(`${file.name} could not be read.`, "error");
    }
  };
  return (
    <>
      <Field label="Import file" hint="Markdown, JSON or YAML; its text appears below.">
        {({ id, describedBy }) => (
          <input
            id={id}
            type="file"
            class="input"
            accept={IMPORT_ACCEPT}
            aria-describedby={describedBy}
            onChange={(e) => void readFile(e.currentTarget.files?.[0])}
          />
        )}
      </Field>
      <Field label="Content" hint="Or paste the text here.">
        {({ id, describedBy }) => (
          <textarea
            id={id}
            class="input mono wss-code"
            rows={8}
            spellcheck={false}
            value={content}
            aria-describedby={describedBy}
            onInput={(e) => onContent(e.currentTarget.value)}
          />
        )}
      </Field>
      <SelectField
        label="Format"
        value={format}
        options={FORMAT_OPTIONS}
        onValue={onFormat}
        hint="Set from the file's extension; change it if that is wrong."
      />
    </>
  );
}
