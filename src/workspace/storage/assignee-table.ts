/**
 * Spec 2 section 4.2: a database whose migrations have not made the assignee table yet answers 503
 * `Assignment feature unavailable: database migration required` on assignment only; every other
 * read treats each todo as unassigned (section 2.2: `assignees` is empty when unassigned).
 */
const MISSING = /no such table: (?:main\.)?(todo_assignees|workspace_member_cache)\b/;

/** Whether `error` is SQLite's refusal of a statement over a missing assignee (or member name) table. */
export function isAssignmentTableMissing(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) if (MISSING.test(e.message)) return true;
  return false;
}

/** The assignees `read` finds, or `none` when the table is not there. */
export async function assigneesOrNone<T>(read: () => Promise<T>, none: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isAssignmentTableMissing(error)) return none;
    throw error;
  }
}
