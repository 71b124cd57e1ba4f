import { eq } from "drizzle-orm";
import { revokeOtherSessions } from "../sessions/sessions.service.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { revokeAllPats } from "../pats/pats.service.ts";
import { passkeys } from "../passkeys/passkeys.table.ts";
import { backupCodes, totpCredentials } from "../totp/totp.table.ts";
import { users } from "../users/users.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "accountEvents">;

/**
 * Ends every credential of an account at once: its sessions and personal access tokens here and,
 * through the account events, its apps' grants (access and refresh tokens) and its workspace
 * sessions. Disabling, recovery and deletion call it; enabling the account again revives none
 * of them.
 */
export async function revokeAllCredentials(
  ctx: Ctx,
  userId: string,
  reason: "disabled" | "recovered" | "deleted",
): Promise<{ sessions: number; tokens: number }> {
  return withTx(ctx.db, async () => {
    const ended = { sessions: await revokeOtherSessions(ctx, userId, null), tokens: await revokeAllPats(ctx, userId) };
    await ctx.accountEvents.emit({ type: "credentials_revoked", userId, reason });
    return ended;
  });
}

/**
 * How far a recovery goes. `keepSecondFactors`: a reset the person asked for by email proves only
 * the mailbox, so the authenticator app, backup codes and passkeys stay and signing in still needs
 * one of them; the host's reset and an administrator's link are for someone who lost them too.
 */
export type Recovery = { keepSecondFactors: boolean };

/**
 * Account recovery, the one way every door does it (`cairn admin reset-password` on the host, an
 * administrator's reset link, and "Forgot password?"): the new password and every credential ended
 * (sessions, personal access tokens, apps' grants, workspace sessions), and second factors removed
 * unless `keepSecondFactors`, in one transaction. Whoever held a session or token may be whom the
 * account is recovered from.
 */
export async function recoverAccount(ctx: Ctx, userId: string, passwordHash: string, { keepSecondFactors }: Recovery): Promise<void> {
  await withTx(ctx.db, async () => {
    await ctx.db.update(users).set({ passwordHash, updatedAt: ctx.clock.now() }).where(eq(users.id, userId)).run();
    if (!keepSecondFactors) {
      await ctx.db.delete(totpCredentials).where(eq(totpCredentials.userId, userId)).run();
      await ctx.db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run();
      await ctx.db.delete(passkeys).where(eq(passkeys.userId, userId)).run();
    }
    await revokeAllCredentials(ctx, userId, "recovered");
  });
}
