import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";

/** `PRAGMA auto_vacuum`'s value for incremental: free pages stay in the file until `incremental_vacuum` hands them back. */
const INCREMENTAL = 2;

/**
 * Up to this size an older database is converted at start by itself (VACUUM rewrites the whole
 * file, about 15 ms per MB); a larger one waits for `cairn migrate`, run with Cairn stopped.
 */
export const CONVERT_AT_START_MAX_BYTES = 32 * 1024 * 1024;

const pragma = (sqlite: Database, name: string): number => Object.values(sqlite.query(`PRAGMA ${name}`).get() as Record<string, number>)[0] as number;

export const freePages = (sqlite: Database): number => pragma(sqlite, "freelist_count");

export const pageCount = (sqlite: Database): number => pragma(sqlite, "page_count");

/**
 * Free pages kept for the writes to come rather than handed back: 2% of the file, at least 1 MB.
 * Under steady use the next inserts fill them, where handing them back would move pages to the
 * holes only for the file to grow again; what a large purge frees beyond that goes back.
 */
export const keptFreePages = (pages: number): number => Math.max(256, Math.floor(pages / 50));

export const isIncremental = (sqlite: Database): boolean => pragma(sqlite, "auto_vacuum") === INCREMENTAL;

/**
 * Hands back up to `pages` free pages: pages from the end of the file move into the free ones and
 * the file is cut short (on disk at the next checkpoint). Answers how many went. Joins whatever
 * transaction is open, as any write does.
 */
export function giveBackPages(sqlite: Database, pages: number): number {
  const before = freePages(sqlite);
  sqlite.run(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
  return before - freePages(sqlite);
}

export type Conversion = "incremental" | "converted" | "too large" | "busy";

/**
 * Makes a database created before incremental vacuum (issue 43) able to give space back: `VACUUM`
 * rewrites it with `auto_vacuum = INCREMENTAL` (the connection asks for it: db/client.ts), then the
 * write-ahead log, which held the whole rewrite, is emptied. Only files up to `maxBytes`, so a start
 * is never held for long; another process holding the database (`busy`) leaves it for the next start.
 */
export function convertToIncremental(sqlite: Database, maxBytes = Number.POSITIVE_INFINITY): Conversion {
  if (isIncremental(sqlite)) return "incremental";
  if (statSync(sqlite.filename).size > maxBytes) return "too large";
  try {
    sqlite.run("PRAGMA auto_vacuum = INCREMENTAL");
    sqlite.run("VACUUM");
    sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith("SQLITE_BUSY")) return "busy";
    throw e;
  }
  return isIncremental(sqlite) ? "converted" : "busy";
}

/** What the operator is told of a conversion (a log line at start, `cairn migrate`'s output); null when nothing happened. */
export function conversionNote(result: Conversion): { level: "info" | "warn"; text: string } | null {
  switch (result) {
    case "incremental":
      return null;
    case "converted":
      return { level: "info", text: "database rewritten once so that it gives back the space purges free" };
    case "too large":
      return {
        level: "warn",
        text: "the database predates giving back free space and is too large to convert at start: stop Cairn and run `cairn migrate` once (README, Upgrade)",
      };
    case "busy":
      return {
        level: "warn",
        text: "the database could not be converted to give back free space while another process has it open: stop Cairn and run `cairn migrate`",
      };
  }
}
