import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { auditLog } from "./audit.table.ts";

export type AuditEntry = {
  actorUserId: string | null;
  action: string;
  teamId?: string | null;
  targetUserId?: string | null;
  details?: Record<string, unknown>;
};

export async function audit(ctx: Pick<AppContext, "db" | "clock">, entry: AuditEntry): Promise<void> {
  await ctx.db
    .insert(auditLog)
    .values({
      at: ctx.clock.now(),
      actorUserId: entry.actorUserId,
      action: entry.action,
      teamId: entry.teamId ?? null,
      targetUserId: entry.targetUserId ?? null,
      details: entry.details ?? {},
    })
    .run();
}

/** Newest first; `before` (an entry id) pages back. */
export async function listAudit(ctx: Pick<AppContext, "db">, { teamId, before, limit = 50 }: { teamId?: string; before?: number; limit?: number }) {
  const where: SQL[] = [];
  if (teamId !== undefined) where.push(eq(auditLog.teamId, teamId));
  if (before !== undefined) where.push(lt(auditLog.id, before));
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(Math.min(Math.max(limit, 1), 200))
    .all();
  return rows.map((e) => ({
    id: e.id,
    at: e.at,
    actor_user_id: e.actorUserId,
    action: e.action,
    team_id: e.teamId,
    target_user_id: e.targetUserId,
    details: e.details,
  }));
}
