import type { Db } from "../../db/client.ts";
import { insideTransaction, withTx } from "../../db/tx.ts";

/**
 * Spec 2 section 4.2: a database whose migrations have not made the assignee table yet answers 503
 * `Assignment feature unavailable: database migration required` on assignment only; every other
 * read treats each todo as unassigned (section 2.2: `assignees` is empty when unassigned).
 */
const MISSING = /no such table: (?:main\.)?(todo_assignees|workspace_member_cache)\b/;
/** PostgreSQL's undefined_table (its message may be in the server's language; the name is quoted in any). */
const UNDEFINED_TABLE = "42P01";
const NAMED = /"(todo_assignees|workspace_member_cache)"/;

const refusesMissing = (e: Error) =>
  MISSING.test(e.message) || (e.name === "PostgresError" && (e as { errno?: unknown }).errno === UNDEFINED_TABLE && NAMED.test(e.message));

/** Whether `error` is the database's refusal of a statement over a missing assignee (or member name) table. */
export function isAssignmentTableMissing(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) if (refusesMissing(e)) return true;
  return false;
}

/** Whether the running code is inside a transaction on `db` (db/tx-gate.ts). */
/**
 * The assignees `read` finds, or `none` when the table is not there. A statement PostgreSQL
 * refuses ends the transaction it runs in, so there, inside one, the read gets a savepoint.
 */
export async function assigneesOrNone<T>(db: Db, read: () => Promise<T>, none: T): Promise<T> {
  try {
    return await (db.$dialect === "postgres" && insideTransaction(db) ? withTx(db, read) : read());
  } catch (error) {
    if (isAssignmentTableMissing(error)) return none;
    throw error;
  }
}
