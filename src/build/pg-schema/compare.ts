import { tokenize, unquote } from "./expressions.ts";
import type { ForeignKey, Index, Table } from "./model.ts";

/**
 * The table files against what the migrations made. `tables` is the schema to render: the table
 * files' names (foreign keys, composite keys) and defaults, the migrated column order, and the
 * indexes only the migrations create (expressions drizzle cannot spell: `notes` lists them).
 * `mismatches` is anything else that differs, which the generator refuses.
 */
export type Comparison = { tables: Table[]; notes: string[]; mismatches: string[] };

/** An expression with its spacing and identifier quotes left out, for comparing. */
const normal = (sql: string | null) =>
  sql === null
    ? null
    : tokenize(sql)
        .filter((t) => t.kind !== "space")
        .map((t) => (t.kind === "quoted" ? unquote(t) : t.kind === "string" ? t.text : t.text.toLowerCase()))
        .join(" ");
const keyText = (index: Index) => index.keys.map((k) => ("column" in k ? k.column : k.expression)).join(", ");
const sameIndex = (a: Index, b: Index) =>
  a.unique === b.unique &&
  normal(a.where) === normal(b.where) &&
  a.keys.map((k) => ("column" in k ? k.column : normal(k.expression))).join() === b.keys.map((k) => ("column" in k ? k.column : normal(k.expression))).join();
const fkKey = (fk: ForeignKey) => `(${fk.columns}) -> ${fk.table}(${fk.references})`;

function compareTable(described: Table, migrated: Table, sameValue: (a: string, b: string) => boolean, out: Comparison): Table {
  const at = (what: string) => `${described.name}: ${what}`;
  const columns = migrated.columns.flatMap((m) => {
    const d = described.columns.find((c) => c.name === m.name);
    if (!d) {
      out.mismatches.push(at(`column ${m.name} is in the migrations only`));
      return [];
    }
    if (d.type !== m.type) out.mismatches.push(at(`${m.name} is ${d.type} in the table file, ${m.type} in the migrations`));
    if (d.notNull !== m.notNull) out.mismatches.push(at(`${m.name} is ${d.notNull ? "" : "not "}NOT NULL in the table file only`));
    const sameDefault = d.defaultSql === null || m.defaultSql === null ? d.defaultSql === m.defaultSql : sameValue(d.defaultSql, m.defaultSql);
    if (!sameDefault) out.mismatches.push(at(`${m.name} defaults to ${d.defaultSql} in the table file, ${m.defaultSql} in the migrations`));
    return [d];
  });
  for (const d of described.columns)
    if (!migrated.columns.some((m) => m.name === d.name)) out.mismatches.push(at(`column ${d.name} is in the table file only`));

  if (String(described.primaryKey?.columns) !== String(migrated.primaryKey?.columns))
    out.mismatches.push(at(`primary key (${described.primaryKey?.columns}) in the table file, (${migrated.primaryKey?.columns}) in the migrations`));

  const indexes = migrated.indexes.map((m) => {
    const d = described.indexes.find((i) => i.name === m.name);
    if (!d) {
      out.notes.push(at(`index ${m.name} (${keyText(m)}) is created by the migrations only`));
      return m;
    }
    if (!sameIndex(d, m))
      out.mismatches.push(
        at(`index ${m.name} differs: (${keyText(d)}) where ${d.where} in the table file, (${keyText(m)}) where ${m.where} in the migrations`),
      );
    return d;
  });
  for (const d of described.indexes) if (!migrated.indexes.some((m) => m.name === d.name)) out.mismatches.push(at(`index ${d.name} is in the table file only`));

  for (const m of migrated.foreignKeys) {
    const d = described.foreignKeys.find((f) => fkKey(f) === fkKey(m));
    if (!d) out.mismatches.push(at(`foreign key ${fkKey(m)} is in the migrations only`));
    else if (d.onDelete !== m.onDelete || d.onUpdate !== m.onUpdate)
      out.mismatches.push(
        at(`foreign key ${fkKey(m)}: on delete/update ${d.onDelete}/${d.onUpdate} in the table file, ${m.onDelete}/${m.onUpdate} in the migrations`),
      );
  }
  for (const d of described.foreignKeys)
    if (!migrated.foreignKeys.some((m) => fkKey(m) === fkKey(d))) out.mismatches.push(at(`foreign key ${fkKey(d)} is in the table file only`));

  return { ...described, columns, indexes };
}

export function compareSchemas(described: Table[], migrated: Table[], sameValue: (a: string, b: string) => boolean): Comparison {
  const out: Comparison = { tables: [], notes: [], mismatches: [] };
  for (const m of migrated) {
    const d = described.find((t) => t.name === m.name);
    if (d) out.tables.push(compareTable(d, m, sameValue, out));
    else out.mismatches.push(`${m.name}: a table of the migrations with no table file`);
  }
  for (const d of described) if (!migrated.some((m) => m.name === d.name)) out.mismatches.push(`${d.name}: a table file's table the migrations never create`);
  return out;
}
