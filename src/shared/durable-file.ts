import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";

/** The file-system calls a durable write makes: node:fs, or a test's recording wrapper around it. */
export type DurableFs = Pick<typeof nodeFs, "openSync" | "writeSync" | "fsyncSync" | "closeSync" | "linkSync" | "renameSync" | "rmSync" | "existsSync">;

// Filesystems without hard links answer one of these; EEXIST is not among them: it means "taken".
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

export function fsyncPath(path: string, fs: DurableFs = nodeFs): void {
  const fd = fs.openSync(path, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Puts the finished, fsynced file `partial` at `target`, atomically and never over an existing
 * file: false when `target` exists. The new name survives a power cut only once its folder is on
 * disk, so the folder is fsynced too (where the platform can fsync a folder).
 */
export function publishNew(partial: string, target: string, fs: DurableFs = nodeFs): boolean {
  try {
    fs.linkSync(partial, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return false;
    if (!NO_HARD_LINKS.has(code)) throw e;
    // rename would replace a file that appeared meanwhile: check again right before it.
    if (fs.existsSync(target)) return false;
    fs.renameSync(partial, target);
  }
  try {
    fsyncPath(dirname(target), fs);
  } catch {}
  return true;
}

/** A name beside `target` for writing it before it is published (same folder: same file system). */
export const partialName = (target: string) => join(dirname(target), `${basename(target)}.partial-${process.pid}-${randomBytes(4).toString("hex")}`);

/**
 * Creates `target` holding `contents`, so that after a crash or power cut it is either absent or
 * whole, never empty or cut short: written under a temporary name, fsynced, then linked (or
 * renamed) into place and its folder fsynced. Never replaces an existing file: false when
 * `target` already exists (another process may have written it a moment ago).
 */
export function writeNewFile(target: string, contents: string, { mode = 0o600, fs = nodeFs }: { mode?: number; fs?: DurableFs } = {}): boolean {
  const partial = partialName(target);
  try {
    const fd = fs.openSync(partial, "wx", mode);
    try {
      const bytes = Buffer.from(contents);
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return publishNew(partial, target, fs);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}
