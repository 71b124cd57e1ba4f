import { closeSync, fsync, fsyncSync, openSync } from "node:fs";

/**
 * The one fsync that `synchronous=FULL` makes inside every COMMIT, taken out of it (issue 12):
 * the WAL file's data flushed to disk, either on the runtime's thread pool (`later`, so the event
 * loop keeps serving while the disk works) or right now (`now`, at shutdown). The same call
 * SQLite's unix VFS makes for the commit (this build's SQLite uses fsync, not fdatasync).
 *
 * The file is opened on first use: SQLite creates it with the first write in WAL mode, and keeps
 * it (the same inode; a checkpoint may truncate it, never replace it) while any connection is
 * open, which ours is until `close`.
 */
export type WalSync = { later(): Promise<void>; now(): void; close(): void };

export function walSync(walFile: string): WalSync {
  let fd: number | null = null;
  const open = () => {
    fd ??= openSync(walFile, "r");
    return fd;
  };
  return {
    later: () =>
      new Promise<void>((resolve, reject) => {
        try {
          fsync(open(), (error) => (error ? reject(error) : resolve()));
        } catch (error) {
          reject(error);
        }
      }),
    now: () => fsyncSync(open()),
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
