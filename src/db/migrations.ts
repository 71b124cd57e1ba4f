import { createHash } from "node:crypto";
import { embedFolder } from "../shared/embed.macro.ts" with { type: "macro" };

/**
 * The drizzle-kit migrations in `migrations/`, carried inside the executable by a bundle-time
 * macro: the SQL and the journal only (drizzle-kit's schema snapshots are for generating, and
 * would weigh 1 MB in every process).
 */
const FILES: Record<string, string> = embedFolder("migrations", "(\\.sql|^meta/_journal\\.json)$");

export type Migration = { tag: string; when: number; statements: string[]; hash: string };

type Journal = { entries: { tag: string; when: number }[] };

function text(name: string): string {
  const b64 = FILES[name];
  if (b64 === undefined) throw new Error(`migration file ${name} is missing from the build`);
  return Buffer.from(b64, "base64").toString("utf8");
}

/** The migrations in journal order, read the way drizzle's migrator reads them (same hash). */
export function bundledMigrations(): Migration[] {
  const journal = JSON.parse(text("meta/_journal.json")) as Journal;
  return journal.entries.map(({ tag, when }) => {
    const sql = text(`${tag}.sql`);
    return {
      tag,
      when,
      statements: sql.split("--> statement-breakpoint").filter((s) => s.trim() !== ""),
      hash: createHash("sha256").update(sql).digest("hex"),
    };
  });
}
