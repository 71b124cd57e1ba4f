import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** CAIRN_DATA names a folder Cairn cannot use; the message is the one line printed before the process stops. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(`CAIRN_DATA: ${message}`);
    this.name = "DataDirError";
  }
}

const FIX = "set CAIRN_DATA to a folder this user can create and write";

/**
 * The one line for a file-system error met while making or opening the data folder `dir`, or null
 * when `error` is not one the operator fixes by pointing CAIRN_DATA elsewhere (a bug: it is thrown on).
 */
export function dataDirError(dir: string, error: unknown): DataDirError | null {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "EEXIST":
    case "ENOTDIR":
      return new DataDirError(`${dir} is not a folder (a file is in the way); ${FIX}`);
    case "EACCES":
    case "EPERM":
      return new DataDirError(`${dir} is not writable by this user (uid ${process.getuid?.() ?? "?"}); ${FIX}, or give it to this user`);
    case "EROFS":
      return new DataDirError(`${dir} is on a read-only file system; ${FIX}`);
    case "ENOENT":
    case "ENAMETOOLONG":
    case "ELOOP":
      return new DataDirError(`cannot create ${dir} (${code}); ${FIX}`);
    case "SQLITE_NOTADB":
      return new DataDirError(`${join(dir, "cairn.db")} is not a SQLite database; ${FIX}, or put back the cairn.db from your backup`);
    case "SQLITE_CANTOPEN":
      return new DataDirError(`cannot open ${join(dir, "cairn.db")} (is it a folder, or not readable?); ${FIX}`);
    default:
      return null;
  }
}

/** Creates the data folder readable by the owner only (it holds every secret of the instance). */
export function ensureDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (e) {
    throw dataDirError(dir, e) ?? e;
  }
}
