import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { todoSets } from "../storage/sets.table.ts";
import { readTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";
import { todos } from "../storage/todos.table.ts";
import { isRenewDue } from "./renew.schedule.ts";

/**
 * Spec 2 section 3, auto-renew: every set whose local renew time has come today (in its own
 * time zone, else the team's default) gets its completed todos reset, at most once per local
 * date. Returns the ids of the sets renewed. Run every 15 minutes by the job schedule.
 */
export async function renewDueSets(ctx: Pick<AppContext, "db" | "clock" | "workspace">): Promise<string[]> {
  const now = ctx.clock.now();
  const candidates = await ctx.db.select().from(todoSets).where(eq(todoSets.autoRenew, true)).all();
  const renewed: string[] = [];
  for (const set of candidates) {
    const schedule = { ...set, lastRenewedAt: set.lastRenewedAt === null ? null : new Date(set.lastRenewedAt).toISOString() };
    if (!isRenewDue(schedule, (await readTeamSettings(ctx, set.teamId)).default_timezone, now)) continue;
    const done = await withTeamTx(ctx.db, set.teamId, async () => {
      // The renew as last read decides: a run that renewed the set meanwhile (another process or
      // instance, or an overlapping run) wins, and this one leaves the todos completed since alone.
      const unchanged = set.lastRenewedAt === null ? isNull(todoSets.lastRenewedAt) : eq(todoSets.lastRenewedAt, set.lastRenewedAt);
      const claimed = await ctx.db
        .update(todoSets)
        .set({ lastRenewedAt: now })
        .where(and(eq(todoSets.id, set.id), unchanged))
        .run();
      if (changedRows(claimed) !== 1) return false;
      await ctx.db
        .update(todos)
        .set({ completed: false, updatedAt: now })
        .where(and(eq(todos.setId, set.id), eq(todos.completed, true)))
        .run();
      return true;
    });
    if (done) renewed.push(set.id);
  }
  return renewed;
}
