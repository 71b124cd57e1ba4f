import type { PurgeStep } from "../batch-delete.ts";
import type { PgClient } from "./client.ts";

/**
 * A purge step (context/purges.ts) over one of the PostgreSQL-only tables, which have no drizzle
 * table: its rows whose `column` (an expiry, a time of making) is before `now - keepMs`, a batch
 * at a time, found through the column's index. The names are this module's callers' constants.
 */
export function pgDeleteBefore(pg: PgClient, table: string, column: string, keepMs = 0): PurgeStep {
  const text = `DELETE FROM "${table}" WHERE ctid IN (SELECT ctid FROM "${table}" WHERE "${column}" < $1::bigint LIMIT $2::bigint)`;
  return async (now, limit) => (await pg.query(text, [Math.floor(now - keepMs), limit])).changes;
}
