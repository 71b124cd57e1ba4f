/**
 * A unique index refused the row (a name or one-use value taken meanwhile), on either database:
 * SQLite's extended code, or the SQLSTATE 23505 on Bun's PostgresError (db/pg/errors.ts; read by
 * shape here, as db/pg sits below this folder).
 */
export const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: unknown; errno?: unknown; name?: unknown } | null;
  return e?.code === "SQLITE_CONSTRAINT_UNIQUE" || (e?.name === "PostgresError" && e.errno === "23505");
};
