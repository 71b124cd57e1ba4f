import { lt } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { wsLoginStates, wsSessions } from "./storage/session.table.ts";
import { dueDigestsSent } from "./storage/notices.table.ts";
import { shareEmailCodes } from "./storage/share-email-codes.table.ts";

/** The workspace's leftovers: sign-ins started and never finished, sessions long ended, past digests and codes. */
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
  // A day's digest row only has to outlive that day in every zone.
  ctx.purges.register(
    "sent due digests",
    (now) =>
      void ctx.db
        .delete(dueDigestsSent)
        .where(lt(dueDigestsSent.sentAt, now - DIGEST_ROWS_KEPT_MS))
        .run(),
  );
  ctx.purges.register("share-link email codes", (now) => void ctx.db.delete(shareEmailCodes).where(lt(shareEmailCodes.expiresAt, now)).run());
}

const DIGEST_ROWS_KEPT_MS = 3 * 86_400_000;
