import { cleanLine } from "../../shared/text.ts";
import { and, asc, eq, max } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { todoSets } from "./sets.table.ts";
import { nameRequired, nameTaken, setNotFound } from "./workspace.errors.ts";

export type SetRow = typeof todoSets.$inferSelect;
type Db = Pick<AppContext, "db" | "workspace">;

/** Spec 2 section 2.1: the public shape of a set. */
export function toSetJson(row: SetRow) {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    sortOrder: row.sortOrder,
    autoRenew: row.autoRenew,
    renewTime: row.renewTime,
    timezone: row.timezone,
    lastRenewedAt: row.lastRenewedAt == null ? null : new Date(row.lastRenewedAt).toISOString(),
    splitCompleted: row.splitCompleted,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** The set in this team, or 404 `Set not found` (a set of another team is the same 404). */
export async function findSetOrThrow(ctx: Db, teamId: string, setId: string): Promise<SetRow> {
  const row = await ctx.db
    .select()
    .from(todoSets)
    .where(and(eq(todoSets.id, setId), eq(todoSets.teamId, teamId)))
    .get();
  if (!row) throw setNotFound();
  return row;
}

export function listSetRows(ctx: Db, teamId: string): Promise<SetRow[]> {
  return ctx.db.select().from(todoSets).where(eq(todoSets.teamId, teamId)).orderBy(asc(todoSets.sortOrder), asc(todoSets.createdAt)).all();
}

export async function nextSetOrder(ctx: Db, teamId: string): Promise<number> {
  const top = (
    await ctx.db
      .select({ top: max(todoSets.sortOrder) })
      .from(todoSets)
      .where(eq(todoSets.teamId, teamId))
      .get()
  )?.top;
  return top == null ? 0 : top + 1;
}

/** Trimmed, non-empty (`Name is required`), not used by another set of the team (409). */
export async function assertFreeName(ctx: Db, teamId: string, name: string | undefined, exceptId?: string): Promise<string> {
  const trimmed = cleanLine(name ?? "");
  if (trimmed === "") throw nameRequired();
  const other = await ctx.db
    .select({ id: todoSets.id })
    .from(todoSets)
    .where(and(eq(todoSets.teamId, teamId), eq(todoSets.name, trimmed)))
    .get();
  if (other && other.id !== exceptId) throw nameTaken();
  return trimmed;
}
