import { type ExportFormat, type SetFields, workspaceApi } from "../../../api/workspace.ts";

export type ImportChoices = {
  teamId: string;
  /** The set to import into, or null for a new set. */
  intoSetId: string | null;
  format: ExportFormat;
  content: string;
  includeComments: boolean;
  mode: "append" | "replace";
  insertAt: "top" | "bottom";
  setName: string;
};

/** Where an import's todos went; `set` when it made a new set. */
export type ImportResult = { setId: string; imported: number; set?: SetFields };

/** Spec 2 section 4.1: import into a set, or as a new set; answers where the todos went. */
export async function runImport(c: ImportChoices): Promise<ImportResult> {
  const base = { format: c.format, content: c.content, includeComments: c.includeComments };
  if (c.intoSetId) {
    // insertAt only places appended todos: replace empties the set first.
    const options = c.mode === "replace" ? { ...base, mode: c.mode } : { ...base, mode: c.mode, insertAt: c.insertAt };
    const { imported } = await workspaceApi.importIntoSet(c.teamId, c.intoSetId, options);
    return { setId: c.intoSetId, imported };
  }
  const name = c.setName.trim();
  const result = await workspaceApi.importNewSet(c.teamId, name ? { ...base, setName: name } : base);
  return { setId: result.set.id, imported: result.imported, set: result.set };
}
