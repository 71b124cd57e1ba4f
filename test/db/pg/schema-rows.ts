import type { Table } from "../../../src/build/pg-schema/model.ts";

export type Value = string | number | null;

const literal = (v: Value) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`);

/**
 * An INSERT both SQLite and PostgreSQL run as written: the given values, and a filler for every
 * other NOT NULL column without a default (0, or the column's name as text).
 */
export function insertSql(tables: Table[], name: string, rows: Record<string, Value>[]): string {
  const table = tables.find((t) => t.name === name);
  if (!table) throw new Error(`no table ${name}`);
  const columns = table.columns.filter(
    (c) => rows.some((r) => c.name in r) || (c.notNull && c.defaultSql === null && String(table.primaryKey?.columns) !== c.name),
  );
  const filler = (c: (typeof columns)[number]) => (c.type === "integer" ? 0 : c.name);
  const values = rows.map((r) => `(${columns.map((c) => literal(c.name in r ? (r[c.name] as Value) : filler(c))).join(", ")})`);
  return `INSERT INTO "${name}" (${columns.map((c) => `"${c.name}"`).join(", ")}) VALUES ${values.join(", ")}`;
}
