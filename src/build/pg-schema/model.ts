/**
 * One neutral shape for a SQLite schema, read either from the drizzle table files
 * (description.ts) or from a database the app's migrations made (migrated.ts), so the two can be
 * compared (compare.ts) and the PostgreSQL DDL rendered from it (render.ts). Expressions (index
 * keys, partial index conditions, defaults) are SQLite SQL text.
 */
export type SqliteType = "integer" | "text" | "real" | "blob" | "numeric";

export type Column = {
  name: string;
  type: SqliteType;
  notNull: boolean;
  /** The default as a SQLite expression (`0`, `'[]'`, `false`), or null. */
  defaultSql: string | null;
};

export type Index = {
  name: string;
  unique: boolean;
  /** Each key: a column name, or an expression's SQL text. */
  keys: IndexKey[];
  where: string | null;
};
export type IndexKey = { column: string } | { expression: string };

export type ForeignKey = {
  /** drizzle's name; SQLite keeps none (the migrated schema's are null). */
  name: string | null;
  columns: string[];
  table: string;
  references: string[];
  onDelete: string;
  onUpdate: string;
};

export type Table = {
  name: string;
  columns: Column[];
  /** The key's columns in order; `name` is drizzle's for a composite key (SQLite keeps none). */
  primaryKey: { name: string | null; columns: string[] } | null;
  indexes: Index[];
  foreignKeys: ForeignKey[];
};

/** A row a freshly migrated database already holds (cache_versions' names), column name to value. */
export type SeedRow = { table: string; values: Record<string, string | number | null> };

export const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
