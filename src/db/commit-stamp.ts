import { existsSync, linkSync, realpathSync, rmSync, writeFileSync } from "node:fs";

/**
 * A number that moves with every commit to the database, by any connection of any process (a
 * worker, the CLI, the sqlite3 shell), read without a system call (issue 12). Caches compare it
 * on each use; reading it with SQL instead takes and drops SQLite's shared read lock, two system
 * calls that cost more under load (about 16 µs of a 44 µs userinfo answer, measured) than the
 * rest of the cache hit.
 *
 * It is the change counter of SQLite's WAL index (https://sqlite.org/walformat.html, section 2.1:
 * `iChange` at byte 8 of the header's first copy, raised by every commit, the header written
 * behind a memory barrier): the -shm file every connection maps, mapped here too.
 *
 * Mapping opens and closes the file, and closing any descriptor of a file drops every POSIX lock
 * this process holds on it, SQLite's included (its lock that keeps another process from
 * resetting the index while we use it). So the file is mapped before the process's first
 * connection to the database locks it, and once per process: later connections share the view.
 */
export type CommitStamp = () => number | null;

/** The WAL index header's format (WALINDEX_MAX_VERSION) and where its fields lie, as 32-bit words. */
const WALINDEX_VERSION = 3007000;
const I_VERSION = 0;
const I_CHANGE = 2;
/** One region of the index, as SQLite sizes it: made in full so SQLite finds a file it would have made. */
const REGION_BYTES = 32_768;

type Mapping = { words: Uint32Array | null; users: number };
/**
 * The views this process holds, by -shm path, with how many open connections use each. A file
 * that could not be mapped is kept as such too: trying again while a connection has it open
 * would drop that connection's locks.
 */
const mappings = new Map<string, Mapping>();

/**
 * Maps `${file}-shm` for a connection about to open `file`; `release` once that connection has
 * closed. `read` answers null where the file cannot be mapped (an unusual file system) and until
 * SQLite has set the index up (a new database's with its first write): callers then ask SQL.
 */
export function mapCommitStamp(file: string): { read: CommitStamp; release(): void } {
  // One file, however named, is one mapping. SQLite names the -shm after the path it was given,
  // but locks by the file: a second view made for another name would be made under its locks.
  const path = `${realpathSync(file)}-shm`;
  let mapping = mappings.get(path);
  if (!mapping) {
    mapping = { words: mapIndex(path), users: 0 };
    mappings.set(path, mapping);
  }
  mapping.users++;
  const mine = mapping;
  const { words } = mine;
  let released = false;
  return {
    read: words ? () => (words[I_VERSION] === WALINDEX_VERSION ? (words[I_CHANGE] as number) : null) : () => null,
    release() {
      if (released) return;
      released = true;
      // The last connection gone, SQLite may delete the file or a new first opener reset it: never read again.
      if (--mine.users === 0 && mappings.get(path) === mine) mappings.delete(path);
    },
  };
}

/**
 * The first page of the -shm file, as words. A missing file is first made whole under a temporary
 * name and linked into place, so no other process's SQLite ever sees it half written; SQLite then
 * sets it up as the first connection to open it, as it would one it had made.
 */
function mapIndex(path: string): Uint32Array | null {
  try {
    if (!existsSync(path)) {
      const staging = `${path}.${process.pid}.tmp`;
      writeFileSync(staging, new Uint8Array(REGION_BYTES), { mode: 0o600 });
      try {
        linkSync(staging, path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      } finally {
        rmSync(staging, { force: true });
      }
    }
    const bytes = Bun.mmap(path, { shared: true, size: 4096 });
    if (bytes.byteLength < 4096) return null;
    return new Uint32Array(bytes.buffer, bytes.byteOffset, 12);
  } catch {
    return null;
  }
}
