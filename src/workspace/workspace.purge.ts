import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { deleteBefore } from "../db/batch-delete.ts";
import { wsLoginStates, wsSessions } from "./storage/session.table.ts";

/** The workspace's leftovers: sign-ins started and never finished, sessions long ended. */
export function registerWorkspacePurges(ctx: Pick<AppContext, "db" | "purges" | "workspace">): void {
  ctx.purges.register("workspace sign-in states", deleteBefore(ctx.db, wsLoginStates, wsLoginStates.expiresAt));
  ctx.purges.register("ended workspace sessions", deleteBefore(ctx.db, wsSessions, wsSessions.expiresAt, KEEP_ENDED_MS));
}
