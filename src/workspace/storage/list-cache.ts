/**
 * Answers built from one set's todos, each kept with the set's list version it was built at
 * (`todo_sets.list_version`, moved by triggers in the transaction of every write that changes the
 * list: migration 0037). An entry is served while its set's version is the one just read, so a
 * write to one set leaves every other set's entries in place, and a write by any process (a
 * worker, the CLI, the sqlite3 shell) is seen by every process on its next read: the version is
 * read from the database with the set, on each request. Least recently used entries go first once
 * the entries pass `budgetBytes` (a 100,000-todo answer is about 28 MB).
 */
export function listCache<T extends string | Uint8Array>(budgetBytes: number) {
  const entries = new Map<string, { version: number; value: T; bytes: number }>();
  let held = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= entry.bytes;
  };
  /** Builds and hits since boot: what tests and /metrics observe. */
  const counts = { hits: 0, builds: 0 };
  return {
    counts,
    /**
     * The value for `key` at `version`: the one kept if built at that version (no read), else
     * `build()`'s, kept under `version`, which the caller read before `build` reads: a value never
     * holds rows older than its version.
     */
    async get(key: string, version: number, build: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.version === version) {
        // Touched: to the end of the Map's order, the last to go.
        entries.delete(key);
        entries.set(key, hit);
        counts.hits++;
        return hit.value;
      }
      drop(key);
      const value = await build();
      counts.builds++;
      // A concurrent build of the same key may have kept its value meanwhile: replaced, its bytes freed.
      drop(key);
      // A string's UTF-16 code units: about what it holds (ASCII JSON is stored one byte each, but may be flattened to two).
      const bytes = typeof value === "string" ? value.length * 2 : value.byteLength;
      if (bytes > budgetBytes) return value;
      entries.set(key, { version, value, bytes });
      held += bytes;
      for (const oldest of entries.keys()) {
        if (held <= budgetBytes) break;
        drop(oldest);
      }
      return value;
    },
  };
}

export type ListCache<T extends string | Uint8Array> = ReturnType<typeof listCache<T>>;
