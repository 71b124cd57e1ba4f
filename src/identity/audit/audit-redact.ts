import { eq, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { auditLog } from "./audit.table.ts";

/** What a deleted person's identifiers read as in the audit log. */
const DELETED_USER = "(deleted user)";

/** Detail keys that name the person an entry is about (a linked account's login, an address). */
const PERSONAL_KEYS = new Set(["login", "email", "username"]);

function redact(value: unknown, personal: Set<string>, dropKeys: boolean): unknown {
  if (typeof value === "string") return personal.has(value.trim().toLowerCase()) ? DELETED_USER : value;
  if (Array.isArray(value)) return value.map((v) => redact(v, personal, dropKeys));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, dropKeys && PERSONAL_KEYS.has(key) && typeof v === "string" ? DELETED_USER : redact(v, personal, dropKeys)]),
  );
}

/**
 * Takes a deleted account's personal data out of the audit log and keeps the rest readable: who
 * did what stays, by the account's id, which nothing resolves any more. Every detail string equal
 * to one of `identifiers` (username, email, linked-account logins; compared case-insensitively)
 * becomes DELETED_USER anywhere, and the entries about the person lose their login and address
 * fields whatever they held. Runs inside the deletion's transaction.
 */
export async function redactUserFromAudit(ctx: Pick<AppContext, "db">, userId: string, identifiers: string[]): Promise<number> {
  const personal = new Set(identifiers.map((v) => v.trim().toLowerCase()).filter((v) => v !== ""));
  // JSON text holds a string escaped: match the escaped form, lower-cased like the column.
  // SQLite's instr is PostgreSQL's strpos.
  const position = sql.raw(ctx.db.$dialect === "postgres" ? "strpos" : "instr");
  const mentions = [...personal].map((v) => sql`${position}(lower(${auditLog.details}), ${JSON.stringify(v).slice(1, -1)}) > 0`);
  const rows = await ctx.db
    .select({ id: auditLog.id, target: auditLog.targetUserId, details: auditLog.details })
    .from(auditLog)
    .where(or(eq(auditLog.targetUserId, userId), ...mentions))
    .all();
  let changed = 0;
  for (const row of rows) {
    const details = redact(row.details, personal, row.target === userId) as Record<string, unknown>;
    if (JSON.stringify(details) === JSON.stringify(row.details)) continue;
    await ctx.db.update(auditLog).set({ details }).where(eq(auditLog.id, row.id)).run();
    changed++;
  }
  return changed;
}
