/** Rows a write changed. drizzle types bun:sqlite's run() as void; bun returns the count. */
export function changedRows(result: unknown): number {
  return (result as { changes: number }).changes;
}
