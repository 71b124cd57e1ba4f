import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { deleteBefore } from "../db/batch-delete.ts";
import { wsLoginStates, wsSessions } from "./storage/session.table.ts";
import { dueDigestsSent } from "./storage/notices.table.ts";
import { shareEmailCodes } from "./storage/share-email-codes.table.ts";

/** Digest rows are kept this long: a day's row only has to outlive that day in every zone. */
const DIGEST_ROWS_KEPT_MS = 3 * 86_400_000;

/** The workspace's leftovers: sign-ins started and never finished, sessions long ended, past digests and codes. */
export function registerWorkspacePurges(ctx: Pick<AppContext, "db" | "purges" | "workspace">): void {
  const { db, purges } = ctx;
  purges.register("workspace sign-in states", deleteBefore(db, wsLoginStates, wsLoginStates.expiresAt));
  purges.register("ended workspace sessions", deleteBefore(db, wsSessions, wsSessions.expiresAt, KEEP_ENDED_MS));
  purges.register("sent due digests", deleteBefore(db, dueDigestsSent, dueDigestsSent.sentAt, DIGEST_ROWS_KEPT_MS));
  purges.register("share-link email codes", deleteBefore(db, shareEmailCodes, shareEmailCodes.expiresAt));
}
