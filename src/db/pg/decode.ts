/**
 * Values as bun:sqlite gives them, so the code above reads the same on both stores (issue 46: the
 * tables store what SQLite stores). Bun.SQL returns `bigint` (int8) and `numeric` as strings, and
 * `boolean` as true/false; SQLite has integers and reals only.
 */

type Column = { name: string; type: number };
type Decoder = (value: unknown) => unknown;

// PostgreSQL type OIDs (pg_type.oid).
const BOOL = 16;
const INT8 = 20;
const NUMERIC = 1700;

// count(*) is int8 and sum(bigint) is numeric: JS numbers, as SQLite's integers are (exact up to 2^53).
const toNumber: Decoder = (value) => (value === null ? null : Number(value));
// `exists (...)` and comparisons: SQLite answers 1 or 0.
const toInteger: Decoder = (value) => (value === null ? null : value ? 1 : 0);

const DECODERS = new Map<number, Decoder>([
  [INT8, toNumber],
  [NUMERIC, toNumber],
  [BOOL, toInteger],
]);

/** Converts, in place, the columns of `rows` whose type differs from SQLite's; rows are arrays or objects. */
export function decodeRows(rows: unknown[], columns: readonly Column[] | null, arrays: boolean): void {
  if (!columns || rows.length === 0) return;
  for (let index = 0; index < columns.length; index++) {
    const column = columns[index]!;
    const decode = DECODERS.get(column.type);
    if (!decode) continue;
    const key = arrays ? index : column.name;
    for (const row of rows as Record<string | number, unknown>[]) row[key] = decode(row[key]);
  }
}
