import { eq, or } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { passkeys } from "../passkeys/passkeys.table.ts";
import { backupCodes, totpCredentials } from "../totp/totp.table.ts";
import { revokeAllCredentials } from "./credentials.service.ts";
import { hashPassword } from "../users/passwords.ts";
import { users } from "../users/users.table.ts";

/**
 * Recovery from the host (`cairn admin reset-password USER`) for someone who lost every factor:
 * a new random password, second factors removed, every credential ended (sessions, personal and
 * OAuth tokens, workspace sessions): whoever held one may be whom the account is recovered from.
 * Returns the password, or null when no user has that username or email.
 */
export async function resetPasswordFromHost(
  ctx: Pick<AppContext, "db" | "clock" | "accountEvents">,
  login: string,
): Promise<{ username: string; password: string } | null> {
  const key = login.trim().toLowerCase();
  const user = ctx.db
    .select()
    .from(users)
    .where(or(eq(users.username, key), eq(users.email, key)))
    .get();
  if (!user) return null;
  const password = randomToken(15);
  const passwordHash = await hashPassword(password);
  withTx(ctx.db, () => {
    ctx.db.update(users).set({ passwordHash, updatedAt: ctx.clock.now() }).where(eq(users.id, user.id)).run();
    ctx.db.delete(totpCredentials).where(eq(totpCredentials.userId, user.id)).run();
    ctx.db.delete(backupCodes).where(eq(backupCodes.userId, user.id)).run();
    ctx.db.delete(passkeys).where(eq(passkeys.userId, user.id)).run();
    revokeAllCredentials(ctx, user.id, "recovered");
    audit(ctx, { actorUserId: null, action: "admin.password_reset_from_host", targetUserId: user.id });
  });
  return { username: user.username, password };
}
