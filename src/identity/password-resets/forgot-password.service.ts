import { and, eq, isNull, or } from "drizzle-orm";
import { type Limit, recordHit, secondsUntilFree } from "../../access/rate-limit.ts";
import { addressKey } from "../../access/window-limit.ts";
import type { AppContext } from "../../context/context.ts";
import { mailNotConfigured } from "../../mail/mail.errors.ts";
import { enqueueMail, mailEnabled } from "../../mail/outbox.service.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { type AccountMailCtx, prepareAccountMail, utcTime } from "../notices/account-mail.ts";
import { withBucketsQueued } from "../users/attempt-limit.ts";
import { users } from "../users/users.table.ts";
import { resetUrl } from "./password-resets.service.ts";
import { passwordResets } from "./password-resets.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config"> & AccountMailCtx;

/** How long an emailed reset link works (issue 44 item 3). */
const FORGOT_LINK_TTL_MS = 15 * 60_000;
/** Links one account is sent (or requests one typed login that names no account makes): 3 an hour. */
const FORGOT_PER_ACCOUNT: Limit = { max: 3, windowMs: 3600_000 };
/** Requests from one client address (an IPv6 client by its /64): 10 an hour. */
const FORGOT_PER_ADDRESS: Limit = { max: 10, windowMs: 3600_000 };

/** The steps every request runs, in this order, whatever the account: the answer's timing tells nothing. */
export type ForgotStep = "look_up" | "make_token" | "compose" | "count" | "enqueue_or_skip";
/** What became of a request: for the log and the tests, never for the answer. */
export type ForgotResult = "sent" | "no_account" | "disabled" | "limited" | "unmailable";

/**
 * "Forgot password?" (`POST /api/auth/password/forgot`): mails a one-use link for 15 minutes to
 * the account a username or email names. Whether an account exists, is disabled or was asked for
 * too often is never told: every request looks the login up, makes a token, composes the whole
 * message and counts itself against both limits (per client address, per account), and only then
 * queues the message or skips it, at the same point. Sending is the outbox's, after the answer.
 * `step` observes the steps (the tests hold both paths to the same ones).
 */
export async function requestPasswordReset(
  ctx: Ctx,
  login: string,
  client: { ip: string },
  step: (name: ForgotStep) => void = () => {},
): Promise<ForgotResult> {
  // Told alike for every login: that the site sends no mail says nothing about accounts.
  if (!mailEnabled(ctx)) throw mailNotConfigured();
  const key = login.trim().toLowerCase();
  const now = ctx.clock.now();
  step("look_up");
  const user = await ctx.db
    .select({ id: users.id, username: users.username, email: users.email, name: users.name, disabledAt: users.disabledAt })
    .from(users)
    .where(or(eq(users.username, key), eq(users.email, key)))
    .get();
  step("make_token");
  const token = randomToken(32);
  const tokenHash = sha256Hex(token);
  const expiresAt = now + FORGOT_LINK_TTL_MS;
  step("compose");
  const mail = await prepareAccountMail(
    ctx,
    { id: user?.id ?? null, email: user?.email ?? key, name: user?.name ?? "" },
    forgotMessage(ctx, user?.username ?? key, token, expiresAt),
  );
  // Username and email of one account share its count; a login naming none is counted by itself.
  const counted: [string, Limit][] = [
    [`forgot:ip:${addressKey(client.ip)}`, FORGOT_PER_ADDRESS],
    [`forgot:account:${user ? user.id : sha256Hex(key)}`, FORGOT_PER_ACCOUNT],
  ];
  const buckets = counted.map(([bucket]) => bucket);
  return withBucketsQueued(ctx.db, buckets, async () => {
    step("count");
    // Both are read and both counted (every one, not some): a request at one limit does the same work.
    const waits: (number | null)[] = [];
    for (const [bucket, limit] of counted) waits.push(await secondsUntilFree(ctx.db, bucket, limit, now));
    for (const [bucket] of counted) await recordHit(ctx.db, bucket, now);
    const limited = waits.some((wait) => wait !== null);
    const result: ForgotResult = !user ? "no_account" : user.disabledAt !== null ? "disabled" : limited ? "limited" : mail === null ? "unmailable" : "sent";
    step("enqueue_or_skip");
    if (result === "sent" && user && mail) {
      // A newer emailed link ends the older ones; an administrator's link stays (asking by email cannot cancel it).
      await ctx.db
        .delete(passwordResets)
        .where(and(eq(passwordResets.userId, user.id), eq(passwordResets.purpose, "forgot"), isNull(passwordResets.usedAt)))
        .run();
      await ctx.db
        .insert(passwordResets)
        .values({ id: randomToken(9), tokenHash, userId: user.id, purpose: "forgot", createdBy: null, createdAt: now, expiresAt, usedAt: null })
        .run();
      await enqueueMail(ctx, mail);
      await audit(ctx, { actorUserId: null, action: "user.password_reset_requested", targetUserId: user.id, details: { expires_at: expiresAt } });
    }
    return result;
  });
}

function forgotMessage(ctx: Ctx, username: string, token: string, expiresAt: number) {
  return {
    kind: "password_reset" as const,
    subject: "reset your password",
    heading: "Choose a new password",
    lines: [
      `Someone, probably you, asked for a link to choose a new password for your account “${username}”.`,
      `It works once, until ${utcTime(expiresAt)} (15 minutes). It signs your account out everywhere; your authenticator app and passkeys stay, and signing in still asks for one.`,
      "If you did not ask for it, ignore this message: your password stays as it is.",
    ],
    action: { label: "Choose a new password", url: resetUrl(ctx, token, "forgot") },
  };
}
