import type { SelectedFieldsOrdered } from "drizzle-orm/sqlite-core";
import * as drizzleUtils from "drizzle-orm/utils";

type RowMapper = (fields: SelectedFieldsOrdered, row: unknown[], joinsNotNullableMap?: Record<string, boolean>) => unknown;

/** drizzle's own row mapper, which its drivers share; it is marked internal, so its types are not published. Both sessions use it (db/sqlite-session.ts, db/pg/session.ts). */
export const { mapResultRow } = drizzleUtils as unknown as { mapResultRow: RowMapper };

/** Which joined tables of a prepared query may be null (drizzle sets it on the query, internally). */
export const nullableJoins = (query: object): Record<string, boolean> | undefined =>
  (query as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap;
