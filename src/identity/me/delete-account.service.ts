import { deleteUser, deletionBlocker } from "../admin/delete-user.service.ts";
import type { AppContext } from "../../context/context.ts";
import { signedInRecently } from "../sessions/sessions.service.ts";
import { totpEnabled, useBackupCode, verifyTotp } from "../totp/totp.service.ts";
import { badInput } from "../users/identity.errors.ts";
import { checkPasswordAgain } from "../users/password-check.ts";
import { NO_PASSWORD } from "../users/passwords.ts";
import type { UserRow } from "../users/users.table.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import type { NoticeOrigin } from "../notices/notice-origin.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets" | "config" | "accountEvents"> & AccountMailCtx;

type DeletionProof = { password?: string; code?: string };

/** A TOTP code is six digits; anything else offered as a code is tried as a backup code. */
const isTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));

/**
 * That the account holder is present, not just their session: the password, or a code from
 * their authenticator app or a backup code (used up). An account with neither a password nor an
 * authenticator (made through a linked provider, signing in with it or a passkey) confirms with a
 * fresh sign-in instead, as for setting a first password: within ten minutes of signing in.
 */
async function assertAccountHolder(ctx: Ctx, user: UserRow, session: { authTime: number }, proof: DeletionProof): Promise<void> {
  const hasTotp = await totpEnabled(ctx, user.id);
  if (proof.code !== undefined) {
    if (!hasTotp) throw badInput("Your account has no authenticator app: confirm with your password.");
    const ok = isTotpCode(proof.code) ? await verifyTotp(ctx, user.id, proof.code) : await useBackupCode(ctx, user.id, proof.code);
    if (!ok) throw badInput("That code is not right.");
    return;
  }
  if (proof.password !== undefined && user.passwordHash !== NO_PASSWORD) {
    if (!(await checkPasswordAgain(ctx, user, proof.password))) throw badInput("The password is not right.");
    return;
  }
  if (user.passwordHash !== NO_PASSWORD) throw badInput("Confirm with your password or a code from your authenticator app.");
  if (hasTotp) throw badInput("Your account has no password: confirm with a code from your authenticator app or a backup code.");
  if (!signedInRecently(ctx, session))
    throw badInput("Your account has no password: deleting it needs a fresh sign-in. Sign out, sign in again, and delete it within 10 minutes.");
}

/**
 * `DELETE /api/oauth/me`: the person deletes their own account, as an administrator could
 * (delete-user.service.ts). What would refuse it (the last administrator, teams left without an
 * owner) is checked before the proof, so a refused deletion spends no backup code; the deletion
 * checks it again inside its transaction.
 */
export async function deleteOwnAccount(ctx: Ctx, user: UserRow, session: { authTime: number }, proof: DeletionProof, origin: NoticeOrigin): Promise<void> {
  const blocker = await deletionBlocker(ctx, user);
  if (blocker) throw blocker;
  await assertAccountHolder(ctx, user, session, proof);
  await deleteUser(ctx, user.id, { kind: "self", origin });
}
