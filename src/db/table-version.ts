import type { Db } from "./client.ts";
import { prepared } from "./prepared.ts";

/**
 * The rows in cache_versions, kept current by triggers: a table's (migrations 0015), and
 * `access_tokens` for what a token resolves to, which also moves when a grant or user changes (0023).
 */
export type VersionedTable = "oauth_clients" | "signing_keys" | "access_tokens";

const versionOf = (db: Db) => db.$client.prepare<{ version: number }, [string]>("SELECT version FROM cache_versions WHERE name = ?");
const allVersions = (db: Db) => db.$client.prepare<[string, number], []>("SELECT name, version FROM cache_versions");
/** Rows this connection has changed since it opened, triggers' included: no lock, no table read. */
const changesSoFar = (db: Db) => db.$client.prepare<[number], []>("SELECT total_changes()");

/** The versions one synchronous run reads once (`withOneVersionRead`), and this connection's change count then. */
let snapshot: { db: Db; versions: Map<string, number> | null; changes: number } | null = null;

/**
 * A value that changes whenever `table` does, by any writer: caches of the table's rows compare
 * it on each use (about two microseconds) and read again when it moved, so they are never stale,
 * also across worker processes and after a change made by the CLI or by hand.
 */
export function tableVersion(db: Db, table: VersionedTable): number {
  if (snapshot?.db === db && !db.$client.inTransaction) {
    // A write of its own since the snapshot (say a trigger moved a version) means reading again.
    const changes = (prepared(db, changesSoFar).values()[0] as [number])[0];
    if (snapshot.versions === null || changes !== snapshot.changes) {
      snapshot.versions = new Map(prepared(db, allVersions).values() as [string, number][]);
      snapshot.changes = changes;
    }
    return snapshot.versions.get(table) ?? 0;
  }
  return prepared(db, versionOf).get(table)?.version ?? 0;
}

/**
 * Runs `fn` (synchronous) with every table's version read once, in one
 * statement. Each statement outside a transaction takes and drops SQLite's shared read lock,
 * two system calls that are most of a version read's cost; a request that checks two caches
 * (introspection: the client's and the token's) pays for one. The versions are as fresh as at
 * the first check inside `fn`, which runs within the one request; a write through this connection
 * inside `fn` has them read again.
 */
export function withOneVersionRead<T>(db: Db, fn: () => T): T {
  const outer = snapshot;
  snapshot = { db, versions: null, changes: 0 };
  try {
    return fn();
  } finally {
    snapshot = outer;
  }
}

/**
 * Rows of a versioned table kept by key, dropped all together when the table changes; at most
 * `limit` keys. A value `keep` refuses is answered but not kept.
 */
export function versionedCache<T>(db: Db, table: VersionedTable, limit: number, keep: (value: T) => boolean = () => true) {
  const entries = new Map<string, T>();
  let seen: number | null = null;
  return (key: string, read: () => T): T => {
    const version = tableVersion(db, table);
    if (version !== seen) {
      entries.clear();
      seen = version;
    }
    if (entries.has(key)) return entries.get(key) as T;
    const value = read();
    if (!keep(value)) return value;
    // A Map keeps insertion order: the oldest key goes first (unknown ids sent by anyone included).
    if (entries.size >= limit) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
    return value;
  };
}
