import { and, eq, isNull, ne } from "drizzle-orm";
import { revokeOtherSessions, signedInRecently } from "../sessions/sessions.service.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict } from "../users/identity.errors.ts";
import { checkPasswordAgain } from "../users/password-check.ts";
import { hashPassword, NO_PASSWORD, passwordProblem } from "../users/passwords.ts";
import { normalizeEmail, normalizeName, normalizePictureUrl } from "../users/user-fields.ts";
import { type UserRow, users } from "../users/users.table.ts";
import { sendVerificationLink } from "../email-verification/email-verification.service.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import type { NoticeOrigin } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";
import { passwordResets } from "../password-resets/password-resets.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config"> & AccountMailCtx;

export type ProfilePatch = { name?: string; picture?: string; email?: string };

/**
 * Name, picture URL (validated) and email (normalized, unique). A new email is unverified until
 * the link mailed to it is used (issue 44); the old address is told of the change, and the reset
 * links mailed to it stop working. All in one transaction with the change.
 */
export async function updateProfile(ctx: Ctx, user: UserRow, patch: ProfilePatch, origin: NoticeOrigin): Promise<UserRow> {
  const set: Partial<UserRow> = {};
  if (patch.name !== undefined) set.name = normalizeName(patch.name);
  if (patch.picture !== undefined) set.pictureUrl = normalizePictureUrl(patch.picture);
  if (patch.email !== undefined) {
    const email = normalizeEmail(patch.email);
    if (email !== user.email) {
      if (
        await ctx.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), ne(users.id, user.id)))
          .get()
      )
        throw conflict("That email address already has an account.");
      set.email = email;
      set.emailVerified = false;
    }
  }
  if (Object.keys(set).length === 0) return user;
  set.updatedAt = ctx.clock.now();
  const updated = { ...user, ...set };
  await withTx(ctx.db, async () => {
    await ctx.db.update(users).set(set).where(eq(users.id, user.id)).run();
    if (set.email === undefined) return;
    await securityNotice(ctx, user.id, { type: "email_changed", from: user.email, to: updated.email }, origin);
    await ctx.db
      .delete(passwordResets)
      .where(and(eq(passwordResets.userId, user.id), eq(passwordResets.purpose, "forgot"), isNull(passwordResets.usedAt)))
      .run();
    await sendVerificationLink(ctx, updated);
    await audit(ctx, { actorUserId: user.id, action: "user.email_changed", targetUserId: user.id });
  });
  return updated;
}

/**
 * Needs the current password; an account without one (made by signing in at a linked provider)
 * sets its first password within ten minutes of signing in, so an old stolen session cannot. On success every other session of the user ends, and so do the
 * apps' grants (their refresh and access tokens): a password changed because it leaked must not
 * leave a way in. Answers how many sessions ended.
 */
export async function changePassword(
  ctx: Pick<AppContext, "db" | "clock" | "accountEvents"> & AccountMailCtx,
  user: UserRow,
  current: { id: string; authTime: number },
  input: { current_password: string; new_password: string },
  origin: NoticeOrigin,
): Promise<{ sessionsEnded: number }> {
  if (user.passwordHash === NO_PASSWORD) {
    if (!signedInRecently(ctx, current))
      throw badInput("Your account has no password yet. Setting one needs a fresh sign-in: sign out, sign in again, and set it within 10 minutes.");
  } else if (!(await checkPasswordAgain(ctx, user, input.current_password))) throw badInput("The current password is not right.");
  const problem = passwordProblem(input.new_password, user.username, user.email);
  if (problem) throw badInput(problem);
  const passwordHash = await hashPassword(input.new_password);
  return withTx(ctx.db, async () => {
    await ctx.db.update(users).set({ passwordHash, updatedAt: ctx.clock.now() }).where(eq(users.id, user.id)).run();
    const sessionsEnded = await revokeOtherSessions(ctx, user.id, current.id);
    await ctx.accountEvents.emit({ type: "password_changed", userId: user.id });
    await audit(ctx, { actorUserId: user.id, action: "user.password_changed", targetUserId: user.id });
    await securityNotice(ctx, user.id, { type: "password_changed" }, origin);
    return { sessionsEnded };
  });
}
