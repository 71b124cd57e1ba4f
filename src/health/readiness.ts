import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import { BUSY_TIMEOUT_MS, type Db } from "../db/client.ts";

/**
 * How long the check waits for another writer: a healthy commit holds the lock for milliseconds,
 * and the check runs on the serving connection, whose event loop waits with it.
 */
const READY_BUSY_TIMEOUT_MS = 500;

export type Readiness = { ok: true; database: "ok" } | { ok: false; database: "unavailable" | "read-only" | "locked"; reason: string };

function refusal(e: unknown): Readiness {
  const code = (e as { code?: string }).code ?? "";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return { ok: false, database: "locked", reason: `another connection held the database's write lock for more than ${READY_BUSY_TIMEOUT_MS} ms` };
  if (code.startsWith("SQLITE_READONLY") || code === "EACCES" || code === "EROFS" || code === "EPERM")
    return { ok: false, database: "read-only", reason: `the database cannot be written (${code})` };
  return { ok: false, database: "unavailable", reason: `the database did not answer (${code || (e as Error).message})` };
}

/**
 * Whether the database really answers: a read, the file and its folder writable (the WAL is made
 * beside it), and the write lock obtainable within a short wait (BEGIN IMMEDIATE, then ROLLBACK:
 * nothing is written). A group commit batch open on this connection already holds the lock.
 */
export function checkReadiness(db: Db): Readiness | Promise<Readiness> {
  if (db.$dialect === "postgres") return checkPostgres(db);
  try {
    const sqlite = db.$client;
    sqlite.query("SELECT 1").get();
    accessSync(sqlite.filename, constants.R_OK | constants.W_OK);
    accessSync(dirname(sqlite.filename), constants.W_OK | constants.X_OK);
    if (sqlite.inTransaction) return { ok: true, database: "ok" };
    sqlite.run(`PRAGMA busy_timeout = ${READY_BUSY_TIMEOUT_MS}`);
    try {
      sqlite.run("BEGIN IMMEDIATE");
      sqlite.run("ROLLBACK");
    } finally {
      sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    return { ok: true, database: "ok" };
  } catch (e) {
    return refusal(e);
  }
}

/** How long PostgreSQL may take to answer the probe before the instance says it is not ready. */
const PG_PING_MS = 1000;

/**
 * PostgreSQL (issue 46): the server answers a query within a second. While it does not, the
 * instance is not ready (a balancer sends to the others); the pool reconnects by itself once it
 * is back, and the next probe says ready again.
 */
async function checkPostgres(db: Db): Promise<Readiness> {
  const pg = (db as Db & { $pg?: { ping(timeoutMs: number): Promise<boolean> } }).$pg;
  if (pg && (await pg.ping(PG_PING_MS))) return { ok: true, database: "ok" };
  return { ok: false, database: "unavailable", reason: `PostgreSQL did not answer within ${PG_PING_MS} ms` };
}
