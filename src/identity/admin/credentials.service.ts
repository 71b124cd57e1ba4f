import { revokeOtherSessions } from "../sessions/sessions.service.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { revokeAllPats } from "../pats/pats.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "accountEvents">;

/**
 * Ends every credential of an account at once: its sessions and personal access tokens here and,
 * through the account events, its apps' grants (access and refresh tokens) and its workspace
 * sessions. Disabling, recovery and deletion call it; enabling the account again revives none
 * of them.
 */
export function revokeAllCredentials(ctx: Ctx, userId: string, reason: "disabled" | "recovered" | "deleted"): { sessions: number; tokens: number } {
  return withTx(ctx.db, () => {
    const ended = { sessions: revokeOtherSessions(ctx, userId, null), tokens: revokeAllPats(ctx, userId) };
    ctx.accountEvents.emit({ type: "credentials_revoked", userId, reason });
    return ended;
  });
}
