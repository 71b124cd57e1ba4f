import type { AppContext } from "../../context/context.ts";
import { deleteBefore } from "../../db/batch-delete.ts";
import { authzSessions } from "./authz-sessions.table.ts";

/**
 * Forward auth cookies past their end go with the purge, a batch at a time through their index;
 * those of an ended session go with it (a foreign key), or at their own end, whichever comes first.
 */
export function registerAuthzSessionPurges(ctx: Pick<AppContext, "db" | "purges">): void {
  ctx.purges.register("forward auth cookies", deleteBefore(ctx.db, authzSessions, authzSessions.expiresAt));
}
