import { and, eq, gt, isNull } from "drizzle-orm";
import type { ResetLink } from "../../contract/api/password-resets.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { recoverAccount } from "../admin/credentials.service.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { hashPassword, passwordProblem } from "../users/passwords.ts";
import { users } from "../users/users.table.ts";
import { resetLinkNotValid } from "./password-resets.errors.ts";
import { passwordResets } from "./password-resets.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "accountEvents">;

/** How long a reset link works: a day, as the admin page and the reset page say. */
export const RESET_LINK_TTL_MS = 24 * 3600_000;

/** The page a reset link opens (the SPA's), carrying the token. */
const resetUrl = (issuer: string, token: string) => `${issuer}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * A one-use link an administrator hands to someone locked out (Admin → Users → Reset link). Only
 * its hash is stored; the links made for this person before stop working.
 */
export function createResetLink(ctx: Ctx, adminId: string, userId: string): ResetLink {
  const user = ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw missing("User");
  const token = randomToken(32);
  const now = ctx.clock.now();
  const expiresAt = now + RESET_LINK_TTL_MS;
  const id = randomToken(9);
  withTx(ctx.db, () => {
    // The newest link is the only one: an older one, perhaps sent to the wrong place, is dead.
    ctx.db
      .delete(passwordResets)
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
      .run();
    ctx.db
      .insert(passwordResets)
      .values({ id, tokenHash: sha256Hex(token), userId, purpose: "admin_link", createdBy: adminId, createdAt: now, expiresAt, usedAt: null })
      .run();
    audit(ctx, { actorUserId: adminId, action: "admin.reset_link_created", targetUserId: userId, details: { id, expires_at: expiresAt } });
  });
  return { url: resetUrl(ctx.config.issuer, token), expires_at: expiresAt };
}

/** The usable link a token names, with its account; throws when there is none. */
function pendingReset(ctx: Ctx, tokenHash: string) {
  const row = ctx.db
    .select({ username: users.username, email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, ctx.clock.now())))
    .get();
  if (!row) throw resetLinkNotValid();
  return row;
}

/**
 * Sets a new password from a reset link, and recovers the account exactly as `cairn admin
 * reset-password` does (second factors removed, every session and token ended). The password is
 * checked as registration checks it before the link is spent; the link is spent by one
 * conditional update, so of concurrent uses exactly one succeeds.
 */
export async function resetPasswordWithLink(ctx: Ctx, input: { token: string; password: string }): Promise<void> {
  const tokenHash = sha256Hex(input.token.trim());
  const account = pendingReset(ctx, tokenHash);
  const problem = passwordProblem(input.password, account.username, account.email);
  if (problem) throw badInput(problem);
  const passwordHash = await hashPassword(input.password);
  withTx(ctx.db, () => {
    const now = ctx.clock.now();
    const spent = ctx.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ id: passwordResets.id, userId: passwordResets.userId, purpose: passwordResets.purpose, createdBy: passwordResets.createdBy })
      .get();
    if (!spent) throw resetLinkNotValid();
    recoverAccount(ctx, spent.userId, passwordHash);
    audit(ctx, {
      actorUserId: spent.userId,
      action: "user.password_reset",
      targetUserId: spent.userId,
      details: { id: spent.id, purpose: spent.purpose, created_by: spent.createdBy },
    });
  });
}
