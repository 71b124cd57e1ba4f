import { eq, or } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { recoverAccount } from "./credentials.service.ts";
import { hashPassword } from "../users/passwords.ts";
import { users } from "../users/users.table.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import { FROM_HOST } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";

/**
 * Recovery from the host (`cairn admin reset-password USER`) for someone who lost every factor:
 * a new random password, then recoverAccount (second factors removed, every credential ended), as
 * a reset link does. Returns the password, or null when no user has that username or email.
 */
export async function resetPasswordFromHost(
  ctx: Pick<AppContext, "db" | "clock" | "accountEvents"> & AccountMailCtx,
  login: string,
): Promise<{ username: string; password: string } | null> {
  const key = login.trim().toLowerCase();
  const user = await ctx.db
    .select()
    .from(users)
    .where(or(eq(users.username, key), eq(users.email, key)))
    .get();
  if (!user) return null;
  const password = randomToken(15);
  const passwordHash = await hashPassword(password);
  await withTx(ctx.db, async () => {
    await recoverAccount(ctx, user.id, passwordHash, { keepSecondFactors: false });
    await audit(ctx, { actorUserId: null, action: "admin.password_reset_from_host", targetUserId: user.id });
    await securityNotice(ctx, user.id, { type: "password_reset", secondFactorsRemoved: true }, FROM_HOST);
  });
  return { username: user.username, password };
}
