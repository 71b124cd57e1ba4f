import type { ExportFormat } from "../../../api/workspace.ts";

/** Spec 2 section 4.1 import/export formats, as a select shows them. */
export const FORMAT_OPTIONS: { value: ExportFormat; label: string }[] = [
  { value: "md", label: "Markdown" },
  { value: "json", label: "JSON" },
  { value: "yaml", label: "YAML" },
];

const BY_EXTENSION: Record<string, ExportFormat> = { md: "md", markdown: "md", json: "json", yaml: "yaml", yml: "yaml" };

/** The format a file name's extension implies, or null when it says nothing we know. */
export function formatFromFileName(name: string): ExportFormat | null {
  const extension = /\.([^./\\]+)$/.exec(name.trim())?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || null;
}

export const MIME_TYPES: Record<ExportFormat, string> = { md: "text/markdown", json: "application/json", yaml: "application/yaml" };
