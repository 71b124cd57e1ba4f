import { contentRequired, parseFailed } from "./import-export.errors.ts";
import { assertContentSize, assertTreeLimits, assertUniqueSiblings } from "./import-rules.ts";
import { exportMarkdown, parseMarkdown } from "./markdown.ts";
import { exportStructured, parseStructured } from "./structured.ts";
import { EXPORT_FORMATS, type ExportFormat, type SetSnapshot } from "./tree.ts";

export { ImportError } from "./import-export.errors.ts";
export { assertUniqueSiblings } from "./import-rules.ts";

export type ImportExportOptions = {
  includeComments: boolean;
  /** Only Markdown uses it: the date of a pasted quote that has no `(date)` header. */
  now?: Date;
};

export type ExportedSet = { format: ExportFormat; fileName: string; content: string };

const isExportFormat = (format: string): format is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(format);

/** `Groceries & Co` -> `groceries-co`: ASCII letters and digits joined by dashes, `set` if none. */
function slugFileName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents off, so `Café` gives `cafe`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 80)
    .replace(/^-+|-+$/g, "");
  return slug || "set";
}

/** Spec 2 section 4.1 export: `{format, fileName, content}`. */
export function exportSet(set: SetSnapshot, format: ExportFormat, { includeComments }: ImportExportOptions): ExportedSet {
  const content = format === "md" ? exportMarkdown(set, { includeComments }) : exportStructured(set, format, { includeComments });
  return { format, fileName: `${slugFileName(set.name)}.${format}`, content };
}

/**
 * Spec 2 section 4.1 import, as values: empty content is `Content is required`; an unknown format,
 * unparsable or invalid content `Failed to parse import content`; duplicate sibling titles the 409
 * string. Appending to an existing set must also call assertUniqueSiblings with its root titles.
 */
export function parseImport(format: string, content: string, options: ImportExportOptions): SetSnapshot {
  if (content.trim() === "") throw contentRequired();
  if (!isExportFormat(format)) throw parseFailed(`unknown format ${JSON.stringify(format)}`);
  assertContentSize(content);
  const set = format === "md" ? parseMarkdown(content, options) : parseStructured(content, format, options);
  assertTreeLimits(set.todos);
  assertUniqueSiblings(set.todos);
  return set;
}
