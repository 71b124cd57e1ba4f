import { eq, sql } from "drizzle-orm";
import { cacheVersions } from "./cache-versions.table.ts";
import { commitStamp, type Db } from "./client.ts";
import { prepared } from "./prepared.ts";

/**
 * The rows in cache_versions, kept current by triggers: a table's (migrations 0015, 0038), and
 * `access_tokens` for what a token resolves to, which also moves when a grant or user changes (0023),
 * and `forward_auth_sessions` for whom a forward auth cookie or token names, and their teams (0039).
 */
export type VersionedTable = "oauth_clients" | "signing_keys" | "access_tokens" | "forward_auth_rules" | "forward_auth_sessions";

const versionOf = (db: Db) => db.$client.prepare<{ version: number }, [string]>("SELECT version FROM cache_versions WHERE name = ?");
const allVersions = (db: Db) => db.$client.prepare<[string, number], []>("SELECT name, version FROM cache_versions");

/** Every table's version as read at a commit stamp (db/commit-stamp.ts), per connection. */
const readAt = new WeakMap<Db, { stamp: number; versions: Map<string, number> }>();

/**
 * A value that changes whenever `table` does, by any writer: caches of the table's rows compare
 * it on each use and read again when it moved, so they are never stale, also across worker
 * processes and after a change made by the CLI or by hand. The versions are read again only
 * once something was committed since they were (the stamp is read first, so a commit landing
 * during the read shows as a change next time); inside a transaction, whose own writes no commit
 * shows yet, and where the stamp cannot be read, they are read each time. (A statement still
 * being stepped through, `iterate`, holds an older snapshot outside a transaction: none is, here.)
 */
export function tableVersion(db: Db, table: VersionedTable): number {
  // PostgreSQL (issue 46): another instance's commit moves nothing this process can read without a
  // round trip (tableVersionNow makes it), so here no version ever matches the last one (NaN equals nothing).
  if (db.$dialect === "postgres") return Number.NaN;
  const stamp = commitStamp(db);
  if (stamp === null) return prepared(db, versionOf).get(table)?.version ?? 0;
  let known = readAt.get(db);
  if (known?.stamp !== stamp) {
    known = { stamp, versions: new Map(prepared(db, allVersions).values() as [string, number][]) };
    readAt.set(db, known);
  }
  return known.versions.get(table) ?? 0;
}

/** A value from memory as it is, or the promise of reading it: a hit on a hot path makes no promise (about a µs each). */
export type Kept<T> = T | Promise<T>;

/** `then` for a Kept value: at once for one from memory. */
export const whenKept = <T, U>(value: Kept<T>, next: (value: T) => Kept<U>): Kept<U> => (value instanceof Promise ? value.then(next) : next(value));

const versionRow = (db: Db) =>
  db
    .select({ version: cacheVersions.version })
    .from(cacheVersions)
    .where(eq(cacheVersions.name, sql.placeholder("name")))
    .prepare();

/**
 * tableVersion on either store. SQLite: from memory, a number. PostgreSQL: another instance's
 * commit shows nowhere in this process, so the cache_versions row itself (the same triggers move
 * it, from a sequence: a rolled-back value never comes back), one read by primary key instead of
 * the rows a cache keeps; inside a transaction, as of its snapshot, as the rows it then reads are.
 */
export function tableVersionNow(db: Db, table: VersionedTable): Kept<number> {
  if (db.$dialect === "sqlite") return tableVersion(db, table);
  return prepared(db, versionRow)
    .get({ name: table })
    .then((row) => row?.version ?? 0);
}

/**
 * Rows of a versioned table kept by key, dropped all together when the table changes; at most
 * `limit` keys. A value `keep` refuses is answered but not kept. The version is taken before the
 * read, so a change committed while reading shows as a new version next time. A hit on SQLite is
 * answered as it is, without a promise (tableVersionNow).
 */
export function versionedCache<T>(db: Db, table: VersionedTable, limit: number, keep: (value: T) => boolean = () => true) {
  const entries = new Map<string, T>();
  let seen: number | null = null;
  const fill = async (key: string, version: number, read: () => Promise<T>) => {
    const value = await read();
    if (!keep(value) || seen !== version) return value;
    // A Map keeps insertion order: the oldest key goes first (unknown ids sent by anyone included).
    if (entries.size >= limit) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
    return value;
  };
  return (key: string, read: () => Promise<T>): Kept<T> =>
    whenKept(tableVersionNow(db, table), (version) => {
      if (version !== seen) {
        entries.clear();
        seen = version;
      }
      return entries.has(key) ? (entries.get(key) as T) : fill(key, version, read);
    });
}
