import { eq } from "drizzle-orm";
import { cacheVersions } from "../../db/cache-versions.table.ts";
import type { Db } from "../../db/client.ts";
import { tableVersion, type VersionedTable } from "../../db/table-version.ts";

/**
 * The version forward auth's caches compare, read before the rows they keep. SQLite: from memory
 * (db/table-version.ts), a number. PostgreSQL: another instance's commit shows nowhere in this
 * process, so the cache_versions row itself (the same triggers move it, migrations-pg 0001): one
 * read by primary key on every proxied request instead of the rules, the cookie and the person.
 */
export function tableVersionNow(db: Db, table: VersionedTable): number | Promise<number> {
  if (db.$dialect === "sqlite") return tableVersion(db, table);
  return db
    .select({ version: cacheVersions.version })
    .from(cacheVersions)
    .where(eq(cacheVersions.name, table))
    .get()
    .then((row) => row?.version ?? 0);
}
