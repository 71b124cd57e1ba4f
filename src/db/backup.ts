import { Database } from "bun:sqlite";
import { chmodSync, existsSync } from "node:fs";

export class BackupError extends Error {}

/**
 * Writes a consistent copy of the live database with `VACUUM INTO`, which reads one snapshot
 * while writers go on (WAL). Refuses to overwrite anything. Returns the copy's size in bytes.
 */
export function backupDatabase(source: string, target: string): number {
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name`);
  const sqlite = new Database(source, { readwrite: true, create: false });
  try {
    sqlite.run("PRAGMA busy_timeout = 5000");
    sqlite.run("VACUUM INTO ?", [target]);
  } finally {
    sqlite.close(false);
  }
  chmodSync(target, 0o600);
  return Bun.file(target).size;
}
