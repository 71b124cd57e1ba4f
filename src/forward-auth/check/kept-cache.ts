import type { Db } from "../../db/client.ts";
import { tableVersion, type VersionedTable } from "../../db/table-version.ts";
import { tableVersionNow } from "../rules/table-version-now.ts";

/** A value from memory as it is, or the promise of reading it: the check's hits make no promise (issue 46). */
export type Kept<T> = T | Promise<T>;

/** `then` for a Kept value: at once for one from memory. */
export const whenKept = <T, U>(value: Kept<T>, next: (value: T) => Kept<U>): Kept<U> => (value instanceof Promise ? value.then(next) : next(value));

/**
 * versionedCache (db/table-version.ts) answering a hit without a promise: the check asks on every
 * proxied request, where a promise per lookup costs about a microsecond. Rows kept by key, dropped
 * all together when `table` moves, at most `limit`; the version is taken before the read, so a
 * change committed while reading shows as a new version next time. On PostgreSQL the version is
 * read from the database (rules/table-version-now.ts): every lookup is a promise there.
 */
export function keptCache<T>(db: Db, table: VersionedTable, limit: number): (key: string, read: () => Promise<T>) => Kept<T> {
  const entries = new Map<string, T>();
  let seen: number | null = null;
  const fill = async (key: string, version: number, read: () => Promise<T>) => {
    const value = await read();
    if (seen !== version) return value;
    // A Map keeps insertion order: the oldest key goes first (unknown values sent by anyone included).
    if (entries.size >= limit) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
    return value;
  };
  const lookup = (key: string, version: number, read: () => Promise<T>): Kept<T> => {
    if (version !== seen) {
      entries.clear();
      seen = version;
    }
    return entries.has(key) ? (entries.get(key) as T) : fill(key, version, read);
  };
  if (db.$dialect === "postgres") return (key, read) => (tableVersionNow(db, table) as Promise<number>).then((version) => lookup(key, version, read));
  return (key, read) => lookup(key, tableVersion(db, table), read);
}
