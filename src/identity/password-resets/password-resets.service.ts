import { and, eq, gt, isNull } from "drizzle-orm";
import type { ResetLink } from "../../contract/api/password-resets.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { recoverAccount } from "../admin/credentials.service.ts";
import { audit } from "../audit/audit.service.ts";
import { type AccountMailCtx, mailAccount, pageUrl, utcTime } from "../notices/account-mail.ts";
import type { NoticeOrigin } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { hashPassword, passwordProblem } from "../users/passwords.ts";
import { users } from "../users/users.table.ts";
import { resetLinkNotValid } from "./password-resets.errors.ts";
import { passwordResets } from "./password-resets.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "accountEvents"> & AccountMailCtx;

/** How long a reset link works: a day, as the admin page and the reset page say. */
export const RESET_LINK_TTL_MS = 24 * 3600_000;

/** The page a reset link opens (the SPA's), carrying the token; `forgot` links say their second factors stay. */
export const resetUrl = (ctx: Pick<AppContext, "config">, token: string, purpose: "admin_link" | "forgot") =>
  pageUrl(ctx, "/reset-password", purpose === "forgot" ? { token, forgot: "1" } : { token });

/**
 * A one-use link an administrator hands to someone locked out (Admin → Users → Reset link). Only
 * its hash is stored; the links made for this person before stop working. With mail set up it is
 * also mailed to the account's address (issue 44), in the transaction that stores it.
 */
export async function createResetLink(ctx: Ctx, adminId: string, userId: string): Promise<ResetLink> {
  const user = await ctx.db
    .select({ id: users.id, email: users.email, name: users.name, username: users.username })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user) throw missing("User");
  const token = randomToken(32);
  const now = ctx.clock.now();
  const expiresAt = now + RESET_LINK_TTL_MS;
  const id = randomToken(9);
  const url = resetUrl(ctx, token, "admin_link");
  await withTx(ctx.db, async () => {
    // The newest link is the only one: an older one, perhaps sent to the wrong place, is dead.
    await ctx.db
      .delete(passwordResets)
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
      .run();
    await ctx.db
      .insert(passwordResets)
      .values({ id, tokenHash: sha256Hex(token), userId, purpose: "admin_link", createdBy: adminId, createdAt: now, expiresAt, usedAt: null })
      .run();
    const mailed = await mailAccount(ctx, user, {
      kind: "reset_link",
      subject: "a link to choose a new password",
      heading: "Choose a new password",
      lines: [
        `An administrator made a link with which you choose a new password for your account “${user.username}”.`,
        `It works once, until ${utcTime(expiresAt)}. Using it signs your account out everywhere and removes its authenticator app, backup codes and passkeys: set them up again afterwards.`,
        "If you did not ask for this, tell the administrator and do not use the link.",
      ],
      action: { label: "Choose a new password", url },
    });
    await audit(ctx, { actorUserId: adminId, action: "admin.reset_link_created", targetUserId: userId, details: { id, expires_at: expiresAt, mailed } });
  });
  return { url, expires_at: expiresAt };
}

/** The usable link a token names, with its account; throws when there is none. */
async function pendingReset(ctx: Ctx, tokenHash: string) {
  const row = await ctx.db
    .select({ username: users.username, email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, ctx.clock.now())))
    .get();
  if (!row) throw resetLinkNotValid();
  return row;
}

/**
 * Sets a new password from a reset link and recovers the account (credentials.service.ts): an
 * administrator's link as `cairn admin reset-password` does (second factors removed, every
 * session and token ended); a link the person asked for by email ends every session and token but
 * keeps the second factors, and proves the address. The password is checked as registration
 * checks it before the link is spent; the link is spent by one conditional update, so of
 * concurrent uses exactly one succeeds. The account's address hears of it.
 */
export async function resetPasswordWithLink(ctx: Ctx, input: { token: string; password: string }, origin: NoticeOrigin): Promise<void> {
  const tokenHash = sha256Hex(input.token.trim());
  const account = await pendingReset(ctx, tokenHash);
  const problem = passwordProblem(input.password, account.username, account.email);
  if (problem) throw badInput(problem);
  const passwordHash = await hashPassword(input.password);
  await withTx(ctx.db, async () => {
    const now = ctx.clock.now();
    const spent = await ctx.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ id: passwordResets.id, userId: passwordResets.userId, purpose: passwordResets.purpose, createdBy: passwordResets.createdBy })
      .get();
    if (!spent) throw resetLinkNotValid();
    const forgot = spent.purpose === "forgot";
    await recoverAccount(ctx, spent.userId, passwordHash, { keepSecondFactors: forgot });
    // The link came to the account's address (an email change ends such links): it is theirs.
    if (forgot) await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, spent.userId)).run();
    await audit(ctx, {
      actorUserId: spent.userId,
      action: "user.password_reset",
      targetUserId: spent.userId,
      details: { id: spent.id, purpose: spent.purpose, created_by: spent.createdBy },
    });
    await securityNotice(ctx, spent.userId, { type: "password_reset", secondFactorsRemoved: !forgot }, origin);
  });
}
