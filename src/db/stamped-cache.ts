import { commitStamp, type Db } from "./client.ts";

/**
 * What the database looked like: `total_changes()` moves with every row this connection writes,
 * committed or not, and the commit stamp (db/commit-stamp.ts) with every commit by anyone. Inside
 * a transaction, whose reads stay at its start while others may commit, and where the stamp
 * cannot be read, `data_version` stands in: it moves with the commits of other connections this
 * connection can see. Equal stamps mean nothing at all was written in between, so an answer
 * computed then is still exact.
 */
function databaseStamp(db: Db): string {
  const client = db.$client;
  const changes = client.query<{ n: number }, []>("SELECT total_changes() AS n").get()?.n;
  const commits = commitStamp(db);
  if (commits !== null) return `${changes}:${commits}`;
  return `${changes}:v${client.query<{ data_version: number }, []>("PRAGMA data_version").get()?.data_version}`;
}

/**
 * A small LRU of values computed from `db`, each valid while the database stamp is the same: any
 * write anywhere invalidates everything, so nothing can be stale. For hot reads whose answer
 * costs milliseconds while a stamp costs microseconds. One cache per owner, made at boot.
 */
export function stampedCache<T>(db: Db, limit: number) {
  const entries = new Map<string, { stamp: string; value: T }>();
  return (key: string, build: () => T): T => {
    const stamp = databaseStamp(db);
    const hit = entries.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = build();
    entries.delete(key);
    entries.set(key, { stamp, value });
    // A Map keeps insertion order: the least recently built entry goes first.
    if (entries.size > limit) entries.delete(entries.keys().next().value as string);
    return value;
  };
}
