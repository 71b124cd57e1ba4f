import { lt } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { wsLoginStates, wsSessions } from "./storage/session.table.ts";

/** The workspace's leftovers: sign-ins started and never finished, sessions long ended. */
export function registerWorkspacePurges(ctx: Pick<AppContext, "db" | "purges" | "workspace">): void {
  ctx.purges.register("workspace sign-in states", (now) => void ctx.db.delete(wsLoginStates).where(lt(wsLoginStates.expiresAt, now)).run());
  ctx.purges.register(
    "ended workspace sessions",
    (now) =>
      void ctx.db
        .delete(wsSessions)
        .where(lt(wsSessions.expiresAt, now - KEEP_ENDED_MS))
        .run(),
  );
}
