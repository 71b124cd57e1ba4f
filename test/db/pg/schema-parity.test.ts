import type { Database } from "bun:sqlite";
import { beforeAll, describe, expect, it } from "bun:test";
import type { SQL } from "bun";
import type { MigratedSchema } from "../../../src/build/pg-schema/migrated.ts";
import type { Column, Table } from "../../../src/build/pg-schema/model.ts";
import { ROWID_TABLES } from "../../../src/build/pg-schema/render.ts";
import { PG_ONLY_TABLES } from "../../../src/db/pg/cluster-tables.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { type PgColumn, type PgForeignKey, type PgIndex, readColumns, readForeignKeys, readIndexes } from "./schema-catalog.ts";
import { usePgDatabases } from "./schema-database.ts";

/** The pinned mapping (issue 46): PostgreSQL stores what SQLite stores. */
const PG_TYPE: Record<string, string> = { integer: "bigint", text: "text", real: "double precision", blob: "bytea" };
const BOOKKEEPING = "__cairn_migrations";

const isRowidKey = (table: Table, column: Column) => column.type === "integer" && String(table.primaryKey?.columns) === column.name;
const bare = (sql: string | null) => sql?.replace(/[()"`\s]/g, "").toLowerCase() ?? null;

describe.skipIf(pgSkipReason !== null)("the PostgreSQL schema against the migrated SQLite schema", () => {
  const pg = usePgDatabases();
  let sql: SQL;
  let sqlite: Database;
  let schema: MigratedSchema;
  let columns: PgColumn[];
  let indexes: PgIndex[];
  let foreignKeys: PgForeignKey[];
  beforeAll(async () => {
    ({ sql, sqlite, schema } = await pg.migratedPair());
    [columns, indexes, foreignKeys] = await Promise.all([readColumns(sql), readIndexes(sql), readForeignKeys(sql)]);
  });

  const pgTable = (name: string) => columns.filter((c) => c.table === name);

  it("has every table, and no other but the full-text stand-in, the migrations' bookkeeping and what instances share", () => {
    const tables = [...new Set(columns.map((c) => c.table))].sort();
    expect(tables).toEqual([...schema.tables.map((t) => t.name), ...schema.virtualTables, BOOKKEEPING, ...PG_ONLY_TABLES].sort());
  });

  it("has every column with the mapped type, nullability and default; text in collation C", async () => {
    for (const table of schema.tables) {
      const have = pgTable(table.name);
      for (const column of table.columns) {
        const where = `${table.name}.${column.name}`;
        const pgColumn = have.find((c) => c.column === column.name);
        expect(pgColumn, where).toBeDefined();
        if (!pgColumn) continue;
        const inKey = table.primaryKey?.columns.includes(column.name) ?? false;
        expect({ where, type: pgColumn.type, notNull: pgColumn.notNull, identity: pgColumn.identity }).toEqual({
          where,
          type: PG_TYPE[column.type] as string,
          notNull: column.notNull || inKey,
          // SQLite gives an INTEGER PRIMARY KEY (the rowid) when an insert leaves it out.
          identity: isRowidKey(table, column),
        });
        if (column.type === "text") expect(pgColumn.collation, where).toBe("C");
        if (column.defaultSql === null) expect(pgColumn.default, where).toBeNull();
        else {
          const [pgValue] = await sql.unsafe(`SELECT (${pgColumn.default})::text AS v`);
          const sqliteValue = sqlite.query<{ v: string }, []>(`SELECT CAST((${column.defaultSql}) AS TEXT) AS v`).get();
          expect(pgValue.v, where).toBe(sqliteValue?.v);
        }
      }
      const extra = have.filter((c) => !table.columns.some((s) => s.name === c.column)).map((c) => c.column);
      expect(extra, table.name).toEqual(ROWID_TABLES[table.name] ? ["rowid"] : []);
    }
  });

  it("keeps the full-text table's columns", () => {
    const ftsColumns = sqlite.query<{ name: string }, []>("SELECT name FROM pragma_table_info('docs_search')").all();
    expect(pgTable("docs_search").map((c) => c.column)).toEqual(["rowid", ...ftsColumns.map((c) => c.name), "document"]);
  });

  it("takes the index's insert (search-index.ts) and keeps its words, the title's weighted above the body's", async () => {
    const insert = "INSERT INTO docs_search (source_id, locale, path, title, body) VALUES ($1, $2, $3, $4, $5) RETURNING rowid";
    const [first] = await sql.unsafe(insert, ["src", "en", "a.md", "Install Guide", "Run the INSTALLER twice"]);
    const [second] = await sql.unsafe(insert, ["src", "en", "b.md", "Other", "More"]);
    expect(Number(second.rowid)).toBeGreaterThan(Number(first.rowid));
    const [row] = await sql`SELECT document::text AS words FROM docs_search WHERE rowid = ${first.rowid}`;
    expect(row.words).toBe("'guide':2A 'install':1A 'installer':5B 'run':3B 'the':4B 'twice':6B");
  });

  it("has every primary key, index and unique index, by name, with its keys and condition", () => {
    for (const table of schema.tables) {
      const have = indexes.filter((i) => i.table === table.name);
      expect(have.find((i) => i.primary)?.keys, `${table.name} primary key`).toEqual(table.primaryKey?.columns ?? []);
      expect(
        have.filter((i) => !i.primary).map((i) => i.name),
        table.name,
      ).toEqual(table.indexes.map((i) => i.name));
      for (const index of table.indexes) {
        const pgIndex = have.find((i) => i.name === index.name) as PgIndex;
        expect({ name: index.name, unique: pgIndex.unique, where: bare(pgIndex.where) }).toEqual({
          name: index.name,
          unique: index.unique,
          where: bare(index.where),
        });
        // Column keys by name; expression keys by what they compute (schema-expressions.test.ts).
        const pgKeys = pgIndex.keys.map((k) => (/^"?[a-z_]+"?$/.test(k) ? k.replaceAll('"', "") : "an expression"));
        expect(pgKeys, index.name).toEqual(index.keys.map((k) => ("column" in k ? k.column : "an expression")));
      }
    }
  });

  it("has every foreign key with its actions", () => {
    for (const table of schema.tables) {
      const have = foreignKeys
        .filter((f) => f.table === table.name)
        .map(({ columns, references, referenced, onDelete, onUpdate }) => ({ columns, references, referenced, onDelete, onUpdate }));
      const want = table.foreignKeys.map((f) => ({
        columns: f.columns,
        references: f.table,
        referenced: f.references,
        onDelete: f.onDelete,
        onUpdate: f.onUpdate,
      }));
      const order = (a: { columns: string[] }, b: { columns: string[] }) => String(a.columns).localeCompare(String(b.columns));
      expect(have.sort(order), table.name).toEqual(want.sort(order));
    }
  });
});
