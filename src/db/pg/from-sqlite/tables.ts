import type { Database } from "bun:sqlite";
import { PG_ONLY_TABLES } from "../cluster-tables.ts";
import { MoveError } from "./source.ts";

/** A column to fill: its PostgreSQL name and type, and the SQLite expression that reads it (over the alias `src`). */
export type CopyColumn = { name: string; type: string; source: string; identity: boolean };

/** A table to copy: its columns (generated ones left out: PostgreSQL makes them), primary key and, if it has one, the column that points at its own rows. */
export type CopyTable = { name: string; columns: CopyColumn[]; primaryKey: string[]; parent: { column: string; references: string } | null };

/**
 * Bookkeeping, not the app's: each store's migration history, SQLite's AUTOINCREMENT counters; and
 * what only instances sharing PostgreSQL keep (a SQLite instance keeps it in memory).
 */
const NOT_COPIED = new Set<string>(["__cairn_migrations", "__drizzle_migrations", "sqlite_sequence", ...PG_ONLY_TABLES]);

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

const COLUMNS = `SELECT c.relname AS "table", a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
  a.attidentity <> '' AS identity, a.attgenerated <> '' AS generated
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname, a.attnum`;

const PRIMARY_KEYS = `SELECT c.relname AS "table", a.attname AS name
FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
WHERE i.indisprimary AND n.nspname = 'public' ORDER BY c.relname, k.position`;

const FOREIGN_KEYS = `SELECT c.relname AS "table", f.relname AS "references", cardinality(k.conkey) AS width,
  (SELECT attname FROM pg_attribute WHERE attrelid = k.conrelid AND attnum = k.conkey[1]) AS "column",
  (SELECT attname FROM pg_attribute WHERE attrelid = k.confrelid AND attnum = k.confkey[1]) AS "referencedColumn"
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE k.contype = 'f' AND n.nspname = 'public'`;

type ColumnRow = { table: string; name: string; type: string; identity: boolean; generated: boolean };
type ForeignKeyRow = { table: string; references: string; width: number; column: string; referencedColumn: string };

/** The source's tables: ordinary and full-text (FTS5 keeps its rows in shadow tables, which are its own business). */
function sqliteTables(sqlite: Database): Map<string, string[]> {
  const names = sqlite
    .query<{ name: string }, []>("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') ORDER BY name")
    .all()
    .map((t) => t.name)
    .filter((name) => !NOT_COPIED.has(name) && !name.startsWith("sqlite_"));
  return new Map(
    names.map((name) => [
      name,
      sqlite
        .query<{ name: string }, [string]>("SELECT name FROM pragma_table_info(?)")
        .all(name)
        .map((c) => c.name),
    ]),
  );
}

/**
 * Every table of the migrated PostgreSQL database with what fills it from SQLite, parents before
 * the tables whose foreign keys point at them (so each insert finds the rows it refers to). The two
 * schemas must hold the same tables and columns (both are this Cairn's last migration), except
 * what PostgreSQL has in addition: `rowid` columns, filled with SQLite's row ids (todos,
 * docs_webhook_deliveries, docs_search: migrations-pg/README.md), and generated columns.
 */
export async function copyPlan(tx: Bun.SQL, sqlite: Database): Promise<CopyTable[]> {
  const columns: ColumnRow[] = await tx.unsafe(COLUMNS);
  const keys: { table: string; name: string }[] = await tx.unsafe(PRIMARY_KEYS);
  const foreignKeys: ForeignKeyRow[] = await tx.unsafe(FOREIGN_KEYS);
  const source = sqliteTables(sqlite);
  const names = [...new Set(columns.map((c) => c.table))].filter((name) => !NOT_COPIED.has(name));
  const problems = [...source.keys()].filter((name) => !names.includes(name)).map((name) => `table ${name} has no place in PostgreSQL`);
  const tables = names.map((name): CopyTable => {
    const sourceColumns = source.get(name);
    if (!sourceColumns) {
      problems.push(`table ${name} is missing from SQLite`);
      return { name, columns: [], primaryKey: [], parent: null };
    }
    const target = columns.filter((c) => c.table === name && !c.generated);
    for (const column of sourceColumns) if (!target.some((c) => c.name === column)) problems.push(`column ${name}.${column} has no place in PostgreSQL`);
    const copied = target.flatMap(({ name: column, type, identity }) => {
      if (sourceColumns.includes(column)) return [{ name: column, type, identity, source: `src.${quote(column)}` }];
      if (column === "rowid") return [{ name: column, type, identity, source: "src.rowid" }];
      problems.push(`column ${name}.${column} is missing from SQLite`);
      return [];
    });
    const self = foreignKeys.find((k) => k.table === name && k.references === name);
    if (self && self.width !== 1) problems.push(`${name} refers to itself by several columns, which the copy cannot order`);
    return {
      name,
      columns: copied,
      primaryKey: keys.filter((k) => k.table === name).map((k) => k.name),
      parent: self ? { column: self.column, references: self.referencedColumn } : null,
    };
  });
  if (problems.length > 0)
    throw new MoveError(`the SQLite and PostgreSQL schemas differ (${problems.join("; ")}): is this the Cairn that last migrated the SQLite file?`);
  return parentsFirst(tables, foreignKeys);
}

/** Tables ordered so that each comes after every table its foreign keys point at (its own rows aside: see readOrder). */
function parentsFirst(tables: CopyTable[], foreignKeys: ForeignKeyRow[]): CopyTable[] {
  const ordered: CopyTable[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (table: CopyTable) => {
    if (state.get(table.name) === "done") return;
    if (state.get(table.name) === "visiting") throw new MoveError(`the foreign keys of ${table.name} form a cycle: no order copies it`);
    state.set(table.name, "visiting");
    for (const key of foreignKeys)
      if (key.table === table.name && key.references !== table.name) {
        const parent = tables.find((t) => t.name === key.references);
        if (parent) visit(parent);
      }
    state.set(table.name, "done");
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/**
 * The SELECT that reads a table's rows from SQLite, in row id order. A table whose rows point at
 * its own (todos' and teams' parent_id) is read level by level, roots first, so a row's parent was
 * inserted before it, whichever batch it falls in; rows no root leads to come last (the foreign key
 * then refuses them, as it should).
 */
export function readOrder(table: CopyTable): string {
  const list = table.columns.map((c) => `${c.source} AS ${quote(c.name)}`).join(", ");
  const from = `${quote(table.name)} AS src`;
  if (!table.parent) return `SELECT ${list} FROM ${from} ORDER BY src.rowid`;
  const { column, references } = table.parent;
  const name = quote(table.name);
  return `WITH RECURSIVE tree(ref, id, depth) AS (
    SELECT ${quote(references)}, rowid, 0 FROM ${name} WHERE ${quote(column)} IS NULL
    UNION ALL SELECT child.${quote(references)}, child.rowid, tree.depth + 1 FROM ${name} AS child JOIN tree ON child.${quote(column)} = tree.ref
  ) SELECT ${list} FROM ${from} LEFT JOIN tree ON tree.id = src.rowid ORDER BY tree.depth IS NULL, tree.depth, src.rowid`;
}
