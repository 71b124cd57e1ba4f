import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, openSync, rmSync, statSync } from "node:fs";
import { fsyncPath, partialName, publishNew, writeNewFile } from "../shared/durable-file.ts";
import { convertToIncremental } from "./vacuum.ts";

export class BackupError extends Error {}

/** Where `cairn backup FILE` puts the instance key that opens FILE's sealed values. */
export const backupKeyFile = (target: string) => `${target}.key`;

export type BackupOptions = {
  /**
   * Looks at the finished copy before anything is published and answers the instance key that
   * opens its sealed values, to be written beside it as FILE.key; null when the copy needs none
   * written (the key is CAIRN_SECRET, or nothing in it is sealed). Throws to refuse the backup.
   */
  keyFor?: (copy: string) => string | null;
};

const taken = (file: string) => new BackupError(`${file} already exists; choose a new file name`);

/**
 * Writes a consistent copy of the live database with `VACUUM INTO`, which reads one snapshot
 * while writers go on (WAL). The copy is written under a temporary name in the target's folder
 * and appears at `target` only whole: a killed or failed run leaves no file there that would
 * open as an empty database and block the retry. Its key (see `keyFor`) is published first, so a
 * `target` that exists always has its key beside it. Refuses to overwrite anything.
 */
export function backupDatabase(source: string, target: string, { keyFor }: BackupOptions = {}): { bytes: number; keyFile: string | null } {
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  const keyTarget = backupKeyFile(target);
  for (const file of [target, keyTarget]) if (existsSync(file)) throw taken(file);
  const partial = partialName(target);
  let keyFile: string | null = null;
  try {
    // Created empty with mode 0600 (VACUUM INTO accepts an empty file), so no copy is ever readable by others.
    closeSync(openSync(partial, "wx", 0o600));
    const sqlite = new Database(source, { readwrite: true, create: false });
    try {
      sqlite.run("PRAGMA busy_timeout = 5000");
      sqlite.run("VACUUM INTO ?", [partial]);
    } finally {
      sqlite.close(false);
    }
    // A copy of a file from before incremental vacuum (db/vacuum.ts) is converted, not the live file: asking
    // the live one would take its write lock. The copy is private, so rewriting it holds nobody up.
    const copy = new Database(partial, { readwrite: true, create: false });
    try {
      convertToIncremental(copy);
    } finally {
      copy.close(false);
    }
    // The snapshot may hold a serving process's batch committed but not yet fsynced (db/group-commit.ts):
    // the live WAL is made durable first, so the copy never holds a write the database could still lose.
    try {
      fsyncPath(`${source}-wal`);
    } catch (e) {
      // No WAL (no process has the database open, or the last one just closed it): all is in the main file.
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    chmodSync(partial, 0o600);
    fsyncPath(partial);
    const key = keyFor?.(partial) ?? null;
    if (key !== null) {
      if (!writeNewFile(keyTarget, `${key}\n`)) throw taken(keyTarget);
      keyFile = keyTarget;
    }
    if (!publishNew(partial, target)) throw taken(target);
  } catch (e) {
    // A key without its database would be a backup that is not one.
    if (keyFile) rmSync(keyFile, { force: true });
    throw e;
  } finally {
    rmSync(partial, { force: true });
  }
  return { bytes: statSync(target).size, keyFile };
}
