/**
 * `npm run db:generate:pg`: the PostgreSQL baseline (migrations-pg/0000_baseline.sql) from the
 * same description as SQLite, the drizzle table files, checked against the schema the SQLite
 * migrations make (a new in-memory database migrated by the app's own migrator): any difference
 * stops it, except indexes only the migrations create, which it takes from them and lists. Also
 * writes migrations-pg/journal.json, the migrations in the order they apply (migrations-pg/README.md).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareSchemas } from "./pg-schema/compare.ts";
import { appTables, describeTable } from "./pg-schema/description.ts";
import { migratedSchema } from "./pg-schema/migrated.ts";
import { renderBaseline } from "./pg-schema/render.ts";

export const PG_MIGRATIONS_DIR = join(import.meta.dir, "../../migrations-pg");
export const BASELINE_FILE = join(PG_MIGRATIONS_DIR, "0000_baseline.sql");
export const JOURNAL_FILE = join(PG_MIGRATIONS_DIR, "journal.json");

/** The baseline's text, and the notes on what the migrations have that the table files lack. */
export async function generateBaseline(): Promise<{ sql: string; notes: string[] }> {
  const described = (await appTables()).map(describeTable);
  const migrated = migratedSchema();
  try {
    const comparison = compareSchemas(described, migrated.tables, migrated.sameValue);
    if (comparison.mismatches.length > 0)
      throw new Error(`the table files and the migrations differ:\n${comparison.mismatches.map((m) => `  ${m}`).join("\n")}`);
    return { sql: renderBaseline(comparison.tables, migrated.seeds), notes: comparison.notes };
  } finally {
    migrated.close();
  }
}

/** The journal: every `NNNN_name.sql` of migrations-pg, in order, by tag (the name without `.sql`). */
export function renderJournal(files = readdirSync(PG_MIGRATIONS_DIR)): string {
  const tags = files
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => f.slice(0, -".sql".length));
  return `${JSON.stringify({ migrations: tags }, null, 2)}\n`;
}

if (import.meta.main) {
  const { sql, notes } = await generateBaseline();
  writeFileSync(BASELINE_FILE, sql);
  writeFileSync(JOURNAL_FILE, renderJournal());
  for (const note of notes) console.log(`note: ${note}`);
  console.log(`wrote ${BASELINE_FILE} and ${JOURNAL_FILE}`);
}
