import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";

export class BackupError extends Error {}

// Filesystems without hard links answer one of these; EEXIST is not among them: it means "taken".
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Puts the finished copy at `target`, atomically and never over an existing file. */
function publish(partial: string, target: string): void {
  try {
    linkSync(partial, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") throw new BackupError(`${target} already exists; choose a new file name`);
    if (!NO_HARD_LINKS.has(code)) throw e;
    // rename would replace a file that appeared meanwhile: check again right before it.
    if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name`);
    renameSync(partial, target);
  }
  // The new name survives a crash only once its folder is on disk (not every platform can fsync a folder).
  try {
    fsyncPath(dirname(target));
  } catch {}
}

/**
 * Writes a consistent copy of the live database with `VACUUM INTO`, which reads one snapshot
 * while writers go on (WAL). The copy is written under a temporary name in the target's folder
 * and appears at `target` only whole: a killed or failed run leaves no file there that would
 * open as an empty database and block the retry. Refuses to overwrite anything. Returns the size.
 */
export function backupDatabase(source: string, target: string): number {
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name`);
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString("hex")}`;
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
    publish(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return statSync(target).size;
}
