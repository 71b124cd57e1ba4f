import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/**
 * Bun macro: runs when the code is bundled (or transpiled by `bun run`), so `bun build --compile`
 * carries the files inside the executable. Returns every file under `folder` (relative to the
 * project root) as base64, keyed by its path inside that folder; an absent folder gives {}.
 * `only` (a regular expression source) keeps just the paths it matches.
 */
export function embedFolder(folder: string, only?: string): Record<string, string> {
  const keep = only === undefined ? null : new RegExp(only);
  const root = resolve(import.meta.dir, "../..", folder);
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const key = relative(root, path).split("\\").join("/");
        if (keep === null || keep.test(key)) files[key] = readFileSync(path).toString("base64");
      }
    }
  };
  try {
    walk(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  return files;
}
