import { Database } from "bun:sqlite";
import { applyMigrations } from "../../db/migrate.ts";
import { joinTokens, splitTopLevel, tokenize, unquote } from "./expressions.ts";
import { byName, type ForeignKey, type Index, type IndexKey, type SeedRow, type SqliteType, type Table } from "./model.ts";

type ColumnInfo = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };
type IndexInfo = { name: string; unique: number; origin: string };
type ForeignKeyInfo = { id: number; table: string; from: string; to: string; on_update: string; on_delete: string };

/** What the app's migrations leave in a new database: the schema the PostgreSQL baseline must match. */
export type MigratedSchema = {
  tables: Table[];
  /** Rows the migrations insert (cache_versions' names). */
  seeds: SeedRow[];
  /** Full-text (virtual) tables, which have no table file. */
  virtualTables: string[];
  triggers: { name: string; table: string; sql: string }[];
  /** Whether two constant SQLite expressions give the same value (a default `false` is `0`). */
  sameValue(a: string, b: string): boolean;
  close(): void;
};

/** Reads `CREATE [UNIQUE] INDEX name ON table (keys) [WHERE condition]` as SQLite stored it. */
function parseIndex(sql: string, name: string, unique: boolean): Index {
  const tokens = tokenize(sql);
  const open = tokens.findIndex((t) => t.text === "(");
  let close = -1;
  for (let i = open, depth = 0; i < tokens.length && close < 0; i++) {
    if (tokens[i]?.text === "(") depth++;
    if (tokens[i]?.text === ")" && --depth === 0) close = i;
  }
  const keys: IndexKey[] = splitTopLevel(tokens.slice(open + 1, close)).map((part) => {
    const words = part.filter((t) => t.kind !== "space");
    const only = words[0];
    if (words.length === 1 && only && (only.kind === "quoted" || only.kind === "word")) return { column: unquote(only) };
    return { expression: joinTokens(part) };
  });
  const after = tokens.slice(close + 1);
  const where = after.findIndex((t) => t.text.toUpperCase() === "WHERE");
  if (open < 0 || close < 0 || after.some((t, i) => t.kind !== "space" && (where < 0 || i < where))) throw new Error(`${name}: cannot read ${sql}`);
  return { name, unique, keys, where: where < 0 ? null : joinTokens(after.slice(where + 1)) };
}

function readTable(db: Database, name: string): Table {
  const columns = db.query<ColumnInfo, [string]>("SELECT * FROM pragma_table_info(?) ORDER BY cid").all(name);
  const keyColumns = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const indexes = db
    .query<IndexInfo, [string]>("SELECT * FROM pragma_index_list(?)")
    .all(name)
    .filter((i) => i.origin !== "pk")
    .map((i) => {
      if (i.origin !== "c") throw new Error(`${name}: the unnamed ${i.origin} index ${i.name} has no name to give PostgreSQL`);
      const row = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(i.name);
      return parseIndex(row?.sql ?? "", i.name, i.unique === 1);
    });
  const fkRows = db.query<ForeignKeyInfo, [string]>("SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq").all(name);
  const foreignKeys: ForeignKey[] = [...new Set(fkRows.map((f) => f.id))].map((id) => {
    const parts = fkRows.filter((f) => f.id === id);
    const first = parts[0] as ForeignKeyInfo;
    return {
      name: null,
      columns: parts.map((p) => p.from),
      table: first.table,
      references: parts.map((p) => p.to),
      onDelete: first.on_delete.toLowerCase(),
      onUpdate: first.on_update.toLowerCase(),
    };
  });
  return {
    name,
    columns: columns.map((c) => ({ name: c.name, type: c.type.toLowerCase() as SqliteType, notNull: c.notnull === 1, defaultSql: c.dflt_value })),
    primaryKey: keyColumns.length > 0 ? { name: null, columns: keyColumns.map((c) => c.name) } : null,
    indexes: indexes.sort(byName),
    foreignKeys,
  };
}

/** Bookkeeping, not the app's: the migrator's own table and SQLite's AUTOINCREMENT counters. */
const INTERNAL = new Set(["__drizzle_migrations", "sqlite_sequence"]);

/** A new in-memory database migrated by the app's own migrator, foreign keys on as the app has them. */
export function migratedDatabase(): Database {
  const db = new Database(":memory:");
  db.run("PRAGMA foreign_keys = ON");
  applyMigrations(db);
  return db;
}

/** What a freshly migrated database holds. */
export function migratedSchema(db = migratedDatabase()): MigratedSchema {
  const list = db.query<{ name: string; type: string }, []>("SELECT name, type FROM pragma_table_list WHERE schema = 'main' ORDER BY name").all();
  const names = list.filter((t) => t.type === "table" && !INTERNAL.has(t.name) && !t.name.startsWith("sqlite_")).map((t) => t.name);
  const seeds = names.flatMap((table) =>
    db
      .query<Record<string, string | number | null>, []>(`SELECT * FROM "${table}" ORDER BY rowid`)
      .all()
      .map((values) => ({ table, values })),
  );
  return {
    tables: names.map((n) => readTable(db, n)),
    seeds,
    virtualTables: list.filter((t) => t.type === "virtual").map((t) => t.name),
    triggers: db
      .query<{ name: string; table: string; sql: string }, []>("SELECT name, tbl_name AS 'table', sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .all(),
    sameValue: (a, b) => db.query<{ same: number }, []>(`SELECT (${a}) IS (${b}) AS same`).get()?.same === 1,
    close: () => db.close(),
  };
}
