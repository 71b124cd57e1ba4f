import { join } from "node:path";
import { is, SQL } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import drizzleConfig from "../../db/drizzle.config.ts";
import type { Column, ForeignKey, Index, SqliteType, Table } from "./model.ts";

const ROOT = join(import.meta.dir, "../../..");

/** An expression of a table file as SQLite text; drizzle-kit writes it the same way, without parameters. */
function sqlText(expression: SQL, where: string): string {
  const query = new SQLiteSyncDialect().sqlToQuery(expression);
  if (query.params.length > 0) throw new Error(`${where}: an expression with parameters cannot be a schema expression`);
  return query.sql;
}

/** A literal default the way the column stores it (a boolean as 0/1, JSON as its text), as SQLite SQL. */
function defaultSql(column: SQLiteColumn, where: string): string | null {
  if (!column.hasDefault || column.default === undefined) return null;
  if (is(column.default, SQL)) return sqlText(column.default, where);
  const stored: unknown = column.mapToDriverValue(column.default);
  if (typeof stored === "number" && Number.isFinite(stored)) return String(stored);
  if (typeof stored === "string") return `'${stored.replaceAll("'", "''")}'`;
  throw new Error(`${where}: no SQL for the default ${JSON.stringify(stored)}`);
}

function columnOf(column: SQLiteColumn, table: string): Column {
  return {
    name: column.name,
    type: column.getSQLType() as SqliteType,
    // A primary key column is NOT NULL in the migrations drizzle-kit writes.
    notNull: column.notNull || column.primary,
    defaultSql: defaultSql(column, `${table}.${column.name}`),
  };
}

const action = (a: string | undefined) => (a ?? "no action").toLowerCase();

/** A drizzle table as the neutral model: what drizzle-kit would write for it. */
export function describeTable(table: SQLiteTable): Table {
  const config = getTableConfig(table);
  const name = config.name;
  const single = config.columns.filter((c) => c.primary).map((c) => c.name);
  const composite = config.primaryKeys[0];
  const indexes: Index[] = [
    ...config.columns.filter((c) => c.isUnique).map((c) => ({ name: c.uniqueName ?? "", unique: true, keys: [{ column: c.name }], where: null })),
    ...config.uniqueConstraints.map((u) => ({ name: u.getName() ?? "", unique: true, keys: u.columns.map((c) => ({ column: c.name })), where: null })),
    ...config.indexes.map(({ config: i }) => ({
      name: i.name,
      unique: i.unique,
      keys: i.columns.map((c) => (is(c, SQL) ? { expression: sqlText(c, `${i.name}`) } : { column: c.name })),
      where: i.where ? sqlText(i.where, `${i.name}`) : null,
    })),
  ];
  const foreignKeys: ForeignKey[] = config.foreignKeys.map((fk) => {
    const ref = fk.reference();
    return {
      name: fk.getName(),
      columns: ref.columns.map((c) => c.name),
      table: getTableConfig(ref.foreignTable).name,
      references: ref.foreignColumns.map((c) => c.name),
      onDelete: action(fk.onDelete),
      onUpdate: action(fk.onUpdate),
    };
  });
  if (config.checks.length > 0) throw new Error(`${name}: CHECK constraints have no PostgreSQL translation here yet`);
  return {
    name,
    columns: config.columns.map((c) => columnOf(c, name)),
    primaryKey: composite
      ? { name: composite.getName(), columns: composite.columns.map((c) => c.name) }
      : single.length > 0
        ? { name: null, columns: single }
        : null,
    indexes,
    foreignKeys,
  };
}

/** Every drizzle table of the app: the files drizzle-kit reads (drizzle.config.ts `schema`), each table once. */
export async function appTables(): Promise<SQLiteTable[]> {
  const patterns = ([] as string[]).concat(drizzleConfig.schema ?? []);
  const files = patterns.flatMap((pattern) => [...new Bun.Glob(pattern).scanSync({ cwd: ROOT })]).sort();
  const tables = new Map<string, SQLiteTable>();
  for (const file of files) {
    const exports: Record<string, unknown> = await import(join(ROOT, file));
    for (const value of Object.values(exports)) if (is(value, SQLiteTable)) tables.set(getTableConfig(value).name, value);
  }
  return [...tables.values()];
}
