import { MoveError } from "./source.ts";

/** What bun:sqlite reads with safeIntegers: INTEGER as bigint (a random 64-bit version stays exact), REAL as number. */
export type SqliteValue = bigint | number | string | Uint8Array | null;

const described = (value: SqliteValue) =>
  value instanceof Uint8Array ? `a blob of ${value.length} bytes` : `the ${typeof value} ${String(value).slice(0, 40)}`;

const KIND: Record<string, (value: Exclude<SqliteValue, null>) => boolean> = {
  bigint: (value) => typeof value === "bigint",
  "double precision": (value) => typeof value === "number",
  text: (value) => typeof value === "string",
  bytea: (value) => value instanceof Uint8Array,
};

/**
 * A SQLite value as the PostgreSQL column of `type` takes it: integers to bigint, reals to double
 * precision, text and blobs as they are. SQLite types each value, not each column: a value of
 * another kind than its column's (1.5 in an integer column, which the driver would round) stops
 * the copy, naming the column, rather than land changed.
 */
export function toPostgres(value: SqliteValue, type: string, where: () => string): SqliteValue {
  if (value === null || KIND[type]?.(value)) return value;
  throw new MoveError(`${where()} holds ${described(value)}, which a PostgreSQL ${type} column cannot hold as it is`);
}

/**
 * One value encoded the same way whichever store it was read from (SQLite with safeIntegers,
 * Bun.SQL with bigint: true), for comparing rows: type tag, then the value.
 */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return "n";
  if (typeof value === "bigint") return `i${value}`;
  if (typeof value === "number") return `r${value}`;
  if (typeof value === "string") return `t${value}`;
  if (value instanceof Uint8Array) return `b${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
  throw new Error(`no canonical form for ${typeof value}`);
}

/** A row's values as one hash (SHA-256 of their canonical forms, length-prefixed so no two rows run together). */
export function rowHash(values: readonly unknown[]): string {
  return Bun.SHA256.hash(
    values
      .map((v) => canonical(v))
      .map((c) => `${c.length}:${c}`)
      .join(""),
    "hex",
  );
}
