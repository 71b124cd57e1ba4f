import { and, eq, gt, isNull } from "drizzle-orm";
import { assertUnderLimit, type Limit, recordHit } from "../../access/rate-limit.ts";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { mailNotConfigured } from "../../mail/mail.errors.ts";
import { mailEnabled } from "../../mail/outbox.service.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { type AccountMailCtx, mailAccount, pageUrl, utcTime } from "../notices/account-mail.ts";
import { withBucketsQueued } from "../users/attempt-limit.ts";
import { type UserRow, users } from "../users/users.table.ts";
import { alreadyVerified, verificationLinkNotValid } from "./email-verification.errors.ts";
import { emailVerifications } from "./email-verifications.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config"> & AccountMailCtx;

/** How long a verification link works. */
const VERIFY_LINK_TTL_MS = 24 * 3600_000;
/** Links an account may ask for again ("Resend"): 3 an hour, so no one mails an address at will. */
const VERIFY_RESENDS: Limit = { max: 3, windowMs: 3600_000 };

/**
 * Mails a one-use link proving the account's current address (`/verify-email?token=`), in the
 * caller's transaction: registering and changing the address call it beside their change. The
 * account's older links stop working. Answers whether it was sent (not without mail set up).
 */
export async function sendVerificationLink(ctx: Ctx, user: Pick<UserRow, "id" | "email" | "name" | "username">): Promise<boolean> {
  if (!mailEnabled(ctx)) return false;
  const token = randomToken(32);
  const now = ctx.clock.now();
  const expiresAt = now + VERIFY_LINK_TTL_MS;
  return withTx(ctx.db, async () => {
    await ctx.db
      .delete(emailVerifications)
      .where(and(eq(emailVerifications.userId, user.id), isNull(emailVerifications.usedAt)))
      .run();
    await ctx.db
      .insert(emailVerifications)
      .values({ id: randomToken(9), tokenHash: sha256Hex(token), userId: user.id, email: user.email, createdAt: now, expiresAt, usedAt: null })
      .run();
    return mailAccount(ctx, user, {
      kind: "verify_email",
      subject: "confirm your email address",
      heading: "Confirm your email address",
      lines: [
        `Confirm that ${user.email} is the address of your account “${user.username}”: apps you sign in to with it may rely on it.`,
        `The link works once, until ${utcTime(expiresAt)} (24 hours).`,
        "If you did not make this account or change its address, ignore this message.",
      ],
      action: { label: "Confirm my address", url: pageUrl(ctx, "/verify-email", { token }) },
    });
  });
}

/** "Resend" on the account page (`POST /api/oauth/me/email/verification`): limited per account. */
export async function resendVerificationLink(ctx: Ctx, user: UserRow): Promise<void> {
  if (user.emailVerified) throw alreadyVerified();
  if (!mailEnabled(ctx)) throw mailNotConfigured();
  const bucket = `verify-email:${user.id}`;
  await withBucketsQueued(ctx.db, [bucket], async () => {
    await assertUnderLimit(ctx.db, bucket, VERIFY_RESENDS, ctx.clock.now());
    await recordHit(ctx.db, bucket, ctx.clock.now());
    await sendVerificationLink(ctx, user);
  });
}

/**
 * `POST /api/auth/email/confirm`: spends the link by one conditional update (of concurrent uses
 * one wins) and marks the address verified, only while the account still has the address the
 * link was sent to; otherwise nothing changes.
 */
export async function confirmEmail(ctx: Ctx, token: string): Promise<void> {
  await withTx(ctx.db, async () => {
    const now = ctx.clock.now();
    const spent = await ctx.db
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(and(eq(emailVerifications.tokenHash, sha256Hex(token.trim())), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, now)))
      .returning({ userId: emailVerifications.userId, email: emailVerifications.email })
      .get();
    if (!spent) throw verificationLinkNotValid();
    const verified = await ctx.db
      .update(users)
      .set({ emailVerified: true, updatedAt: now })
      .where(and(eq(users.id, spent.userId), eq(users.email, spent.email)))
      .run();
    if (changedRows(verified) !== 1) throw verificationLinkNotValid();
    await audit(ctx, { actorUserId: spent.userId, action: "user.email_verified", targetUserId: spent.userId, details: { by: "link" } });
  });
}
