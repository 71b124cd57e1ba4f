import type { SQL } from "bun";

/** What PostgreSQL's catalog says of the public schema's tables, read for the parity tests. */
export type PgColumn = { table: string; column: string; type: string; notNull: boolean; identity: boolean; default: string | null; collation: string | null };
export type PgIndex = { table: string; name: string; unique: boolean; primary: boolean; keys: string[]; where: string | null; method: string };
export type PgForeignKey = { table: string; name: string; columns: string[]; references: string; referenced: string[]; onDelete: string; onUpdate: string };

const ACTIONS: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

export async function readColumns(sql: SQL): Promise<PgColumn[]> {
  return await sql`
    SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
      a.attidentity <> '' AS identity, pg_get_expr(d.adbin, d.adrelid) AS "default", co.collname AS collation
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`;
}

export async function readIndexes(sql: SQL): Promise<PgIndex[]> {
  return await sql`
    SELECT t.relname AS "table", i.relname AS name, x.indisunique AS "unique", x.indisprimary AS "primary",
      array(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) AS k) AS keys,
      pg_get_expr(x.indpred, x.indrelid, true) AS "where", am.amname AS method
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_am am ON am.oid = i.relam
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public'
    ORDER BY t.relname, i.relname`;
}

export async function readForeignKeys(sql: SQL): Promise<PgForeignKey[]> {
  const rows = await sql`
    SELECT f.conrelid::regclass::text AS "table", f.conname AS name, f.confrelid::regclass::text AS "references",
      array(SELECT a.attname::text FROM unnest(f.conkey) WITH ORDINALITY AS k(num, pos) JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.num ORDER BY k.pos) AS columns,
      array(SELECT a.attname::text FROM unnest(f.confkey) WITH ORDINALITY AS k(num, pos) JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.num ORDER BY k.pos) AS referenced,
      f.confdeltype AS "onDelete", f.confupdtype AS "onUpdate"
    FROM pg_constraint f WHERE f.contype = 'f'
    ORDER BY 1, 2`;
  return rows.map((r: PgForeignKey) => ({ ...r, onDelete: ACTIONS[r.onDelete] ?? r.onDelete, onUpdate: ACTIONS[r.onUpdate] ?? r.onUpdate }));
}
