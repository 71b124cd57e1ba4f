/** Rows a write changed. drizzle types bun:sqlite's run() as void; bun returns the count. */
export function changedRows(result: unknown): number {
  return (result as { changes: number }).changes;
}

/** The row id an insert gave its row (bun:sqlite's `lastInsertRowid`, which drizzle does not type). */
export function insertedRowId(result: unknown): number {
  return Number((result as { lastInsertRowid: number | bigint }).lastInsertRowid);
}
