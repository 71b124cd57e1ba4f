import { existsSync, linkSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";

/**
 * A number that moves with every commit to the database, by any connection of any process (a
 * worker, the CLI, the sqlite3 shell), read without a system call (issue 12). Caches compare it
 * on each use; reading it with SQL instead takes and drops SQLite's shared read lock, two system
 * calls that cost more under load (about 16 µs of a 44 µs userinfo answer, measured) than the
 * rest of the cache hit.
 *
 * It counts the changes of the WAL index header (https://sqlite.org/walformat.html, section
 * 2.1), which every commit rewrites (its `iChange` counter, frame count and checksums) behind a
 * memory barrier, first copy last: the -shm file every connection maps, mapped here too. The
 * whole header is compared, as SQLite compares it, because recovery rebuilds it with the counter
 * back at zero.
 *
 * Mapping opens and closes the file, and closing any descriptor of a file drops every POSIX lock
 * this process holds on it, SQLite's included (its lock that keeps another process from
 * resetting the index while we use it). So a file is mapped only before the process's first
 * connection to it locks it, and at most once: later connections, also one opened while a
 * closed one lingers (SQLite keeps a connection with live statements open), share its view, or
 * its lack of one.
 */
export type CommitStamp = () => number | null;

/** The WAL index header's format (WALINDEX_MAX_VERSION), where it lies, as 32-bit words. */
const WALINDEX_VERSION = 3007000;
const HEADER_WORDS = 12;
/** One region of the index, as SQLite sizes it: made in full so SQLite finds a file it would have made. */
const REGION_BYTES = 32_768;
const PAGE = 4096;

type Mapping = {
  /** The header's first copy in the mapped file; null where it could not be mapped, or the file is not SQLite's. */
  words: Uint32Array | null;
  /** The file (device and inode) and its name. */
  file: string;
  path: string;
  /** Whether the file is the one SQLite uses: checked when SQLite has set the index up, after each time no connection of ours held it. */
  checked: boolean;
  /** The header as last seen, and how many times it was seen to change. */
  seen: Uint32Array;
  changes: number;
  users: number;
};

/**
 * The views this process holds (and the files it could not map), by file, with how many open
 * connections use each. A view stays while its file does: a connection SQLite keeps open after
 * its close still holds the file and its locks, and mapping it again would drop them.
 */
const mappings = new Map<string, Mapping>();

const fileId = (path: string) => {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? `${s.dev}:${s.ino}` : null;
};

/**
 * Maps `${file}-shm` for a connection about to open `file`; `release` once that connection has
 * closed. `read` answers null where the file cannot be mapped (an unusual file system), until
 * SQLite has set the index up (a new database's with its first write), and while the connection
 * is open if the file mapped is not the one SQLite uses: callers then ask SQL.
 */
export function mapCommitStamp(file: string): { read: CommitStamp; release(): void } {
  // One file, however named, is one mapping (SQLite follows links to name its -shm).
  const path = `${realpathSync(file)}-shm`;
  const mapping = viewOf(path);
  // No connection of ours held the file: another process's last one may remove it before ours
  // opens it, and SQLite then makes a new one.
  if (mapping.users++ === 0) mapping.checked = false;
  let released = false;
  return {
    read: () => read(mapping),
    release() {
      if (released) return;
      released = true;
      mapping.users--;
      // Gone with its last connection (SQLite removes it), or replaced: never read again.
      if (mapping.users === 0 && fileId(mapping.path) !== mapping.file) forget(mapping);
    },
  };
}

function forget(mapping: Mapping) {
  mapping.words = null;
  if (mappings.get(mapping.file) === mapping) mappings.delete(mapping.file);
}

function read(mapping: Mapping): number | null {
  const { words, seen } = mapping;
  if (!words || words[0] !== WALINDEX_VERSION) return null;
  if (!mapping.checked) {
    // By now SQLite has the file open (the connection's pragmas read the database): is it this one?
    mapping.checked = true;
    const used = fileId(mapping.path);
    if (used !== mapping.file) {
      // Kept under the file SQLite uses, unmapped: a later connection must not map it under ours.
      forget(mapping);
      if (used && !mappings.has(used)) {
        mapping.file = used;
        mappings.set(used, mapping);
      }
      return null;
    }
  }
  let changed = false;
  for (let i = 0; i < HEADER_WORDS; i++)
    if (words[i] !== seen[i]) {
      seen[i] = words[i] as number;
      changed = true;
    }
  if (changed) mapping.changes++;
  return mapping.changes;
}

function viewOf(path: string): Mapping {
  // Views no connection uses whose file is gone since (another process held it when ours closed).
  for (const [file, mapping] of mappings) if (mapping.users === 0 && fileId(mapping.path) !== file) forget(mapping);
  const id = fileId(path);
  const held = id && mappings.get(id);
  if (held) return held;
  const made = mapIndex(path);
  const file = made?.id ?? fileId(path) ?? "";
  const mapping: Mapping = { words: made?.words ?? null, file, path, checked: false, seen: new Uint32Array(HEADER_WORDS), changes: 0, users: 0 };
  // Kept also when not mapped: mapping the file later, under a connection's locks, would drop them.
  if (file) mappings.set(file, mapping);
  return mapping;
}

/**
 * The header of the -shm file, mapped. A missing file is first made whole under a temporary name
 * and linked into place, so no other process's SQLite ever sees it half written; SQLite then sets
 * it up as the first connection to open it, as it would one it had made.
 */
function mapIndex(path: string): { words: Uint32Array; id: string } | null {
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
    const found = statSync(path);
    // A smaller file is being set up by another process: mapped, a page past its end would fault.
    if (found.size < PAGE) return null;
    const id = `${found.dev}:${found.ino}`;
    const bytes = Bun.mmap(path, { shared: true, size: PAGE });
    // The same file before and after: it was not replaced in between.
    if (fileId(path) !== id) return null;
    return { words: new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS), id };
  } catch {
    return null;
  }
}
