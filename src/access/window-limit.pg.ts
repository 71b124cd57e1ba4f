import type { PgClient } from "../db/pg/client.ts";
import { pgDeleteBefore } from "../db/pg/purge-step.ts";
import { type SharedWindowLimiter, windowVerdict } from "./window-limit.ts";

/**
 * One hit, counted atomically: a key's first hit, or its first after the window ended, starts a
 * window at `now`; any other adds one. The SET's expressions read the row as it was.
 */
const HIT = `INSERT INTO "window_hits" AS w ("name", "key", "window_start", "count", "expires_at")
VALUES ($1, $2, $3::bigint, 1, $3::bigint + $4::bigint)
ON CONFLICT ("name", "key") DO UPDATE SET
  "window_start" = CASE WHEN $3::bigint - w."window_start" >= $4::bigint THEN $3::bigint ELSE w."window_start" END,
  "count" = CASE WHEN $3::bigint - w."window_start" >= $4::bigint THEN 1 ELSE w."count" + 1 END,
  "expires_at" = CASE WHEN $3::bigint - w."window_start" >= $4::bigint THEN $3::bigint + $4::bigint ELSE w."expires_at" END
RETURNING "count", "window_start"`;

/**
 * The named window limits of every instance on one PostgreSQL database (issue 46): counted in
 * `window_hits`, one statement a hit outside any transaction, so a client spreading its requests
 * over the instances gets the allowance it would get from one, with the same answers as the
 * in-memory windows (access/window-limit.ts). Keys are not capped: the purge clears ended windows.
 */
export function pgWindowLimits(pg: PgClient) {
  return (name: string, options: { max: number; windowMs: number }): SharedWindowLimiter => ({
    async hit(key, now) {
      const at = Math.floor(now);
      const { rows } = await pg.query<{ count: number; window_start: number }>(HIT, [name, key, at, options.windowMs]);
      const row = rows[0] as { count: number; window_start: number };
      return windowVerdict(row.count, row.window_start, at, options);
    },
  });
}

/** The purge of ended windows. */
export const windowHitsPurge = (pg: PgClient) => pgDeleteBefore(pg, "window_hits", "expires_at");
