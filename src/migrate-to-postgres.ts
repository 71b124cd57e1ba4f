import { databaseFile, openInstanceDatabase } from "./boot.ts";
import type { Config } from "./config/config.ts";
import { closeDatabase } from "./db/client.ts";
import { copyIntoPostgres, type TableCount } from "./db/pg/from-sqlite/copy.ts";
import { openSealedValues } from "./db/pg/from-sqlite/sealed.ts";
import { assertLatestMigration, lockSource, MoveError, releaseSource } from "./db/pg/from-sqlite/source.ts";
import { verifyCopy } from "./db/pg/from-sqlite/verify.ts";
import { isUnavailable } from "./db/pg/errors.ts";
import { sqliteInstanceKey } from "./keys/backup-key.ts";
import { createSecretBox } from "./shared/crypto.ts";

export { MoveError, type TableCount };

/** What PostgreSQL instances must be given as CAIRN_SECRET: none shares a data folder, so none has secret.key. */
export type SecretToGive = { from: "CAIRN_SECRET" } | { from: "file"; file: string; value: string } | { from: "none" };

export type MoveReport = { counts: TableCount[]; rows: number; sealed: number; secret: SecretToGive };

/** The URL with its password hidden, for messages. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(the URL given)";
  }
}

/** A MoveError or an error of the server (unreachable, refusing the login, ...) as the one line to print, `what` the state it leaves. */
function explained(e: unknown, url: string, what: string): unknown {
  if (e instanceof MoveError) return new MoveError(`${e.message}${what}`);
  if (isUnavailable(e)) return new MoveError(`cannot reach PostgreSQL at ${shownUrl(url)}: ${(e as Error).message}`);
  if (e instanceof Bun.SQL.PostgresError) return new MoveError(`PostgreSQL at ${shownUrl(url)} refused: ${e.message}${what}`);
  return e;
}

/**
 * `cairn migrate-to-postgres URL` (issue 46): copies the instance's SQLite database (CAIRN_DATA)
 * into the empty PostgreSQL database at `url`, then verifies the copy: every table's row count, a
 * sample of rows value by value, and a sample of sealed values opened with the instance key. The
 * SQLite file is held for this process alone from start to end (Cairn must be stopped) and is
 * only read. Throws MoveError, and the errors of boot.ts and keys/ whose message is the one line
 * to print (NoDatabaseError, DataDirError, InstanceSecretError).
 */
export async function migrateToPostgres(config: Config, url: string, onTable?: (count: TableCount) => void): Promise<MoveReport> {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new MoveError(`the target must be a postgres:// URL (postgres://user:password@host:5432/database), got "${shownUrl(url)}"`);
  const db = openInstanceDatabase(config, false);
  const sqlite = db.$client;
  try {
    lockSource(sqlite, databaseFile(config));
    assertLatestMigration(sqlite);
    // Before anything is written: a key that opens nothing here would open nothing there either.
    const key = sqliteInstanceKey(config, sqlite);
    const pg = new Bun.SQL(url, { max: 1, bigint: true, connectionTimeout: 10 });
    try {
      const copied = await copyIntoPostgres(pg, sqlite, onTable).catch((e: unknown) => {
        throw explained(e, url, "; nothing was written to PostgreSQL");
      });
      const checked = "; the copy is committed: drop the PostgreSQL database and create it again before another try";
      const rows = await verifyCopy(pg, sqlite, copied.tables, copied.counts).catch((e: unknown) => {
        throw explained(e, url, checked);
      });
      const sealed = key
        ? await openSealedValues(pg, createSecretBox(key.key)).catch((e: unknown) => {
            throw explained(e, url, checked);
          })
        : 0;
      const secret: SecretToGive = !key ? { from: "none" } : key.file ? { from: "file", file: key.file, value: key.key } : { from: "CAIRN_SECRET" };
      return { counts: copied.counts, rows, sealed, secret };
    } finally {
      await pg.close({ timeout: 5 });
    }
  } finally {
    releaseSource(sqlite);
    closeDatabase(db);
  }
}

/** The line printed as each table is copied. */
export const tableLine = ({ table, rows }: TableCount) => `  ${table.padEnd(32)} ${String(rows).padStart(9)}`;

function secretLines(secret: SecretToGive): string[] {
  switch (secret.from) {
    case "CAIRN_SECRET":
      return ["CAIRN_SECRET, the same value this command ran with"];
    case "file":
      // Named, not printed: a terminal's scrollback and captured logs are no place for the key.
      return [
        `CAIRN_SECRET=$(cat ${secret.file})`,
        "(the key this instance made: instances on PostgreSQL share no data folder, so each needs it",
        "in its environment; it opens every sealed value: keep it secret, keep the file)",
      ];
    case "none":
      return ["CAIRN_SECRET, a new secret of at least 32 characters (openssl rand -base64 32), the same on every instance"];
  }
}

/** What the command prints once the copy is verified: the totals and the next steps. */
export function summary(report: MoveReport, url: string): string {
  const secret = secretLines(report.secret).map((line) => `       ${line}`);
  return [
    `verified: ${report.counts.length} tables, ${report.rows} rows, ${report.sealed} sealed values opened`,
    "",
    "Next:",
    "  1. Keep the SQLite instance stopped: its data folder is unchanged, your way back.",
    "  2. Give every Cairn instance",
    `       CAIRN_DATABASE_URL=${shownUrl(url)}${new URL(url).password ? " (its password in place of ***)" : ""}`,
    ...secret,
    "  3. Start them (behind your load balancer): they share everything through PostgreSQL.",
    "",
  ].join("\n");
}
