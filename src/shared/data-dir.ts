import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomToken } from "./crypto.ts";

/** Creates the data folder readable by the owner only (it holds every secret of the instance). */
export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** `CAIRN_SECRET`, or `<data>/secret.key` created on first start (ARCHITECTURE section 1). */
export function loadInstanceSecret(dataDir: string, fromEnv: string | null): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  // "wx": never overwrite a key that another process created a moment ago.
  try {
    writeFileSync(file, `${randomToken(32)}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return readFileSync(file, "utf8").trim();
}
