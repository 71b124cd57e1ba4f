import { and, count, eq, gt, isNull, or } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { constantTimeEqual, sha256Hex } from "../../shared/crypto.ts";
import { getSiteConfig } from "../site-config/site-config.ts";
import { invitations } from "../invites/invites.table.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict } from "../users/identity.errors.ts";
import { denied, notSignedIn } from "../../access/access.errors.ts";
import { hashPassword, passwordProblem } from "../users/passwords.ts";
import { normalizeEmail, normalizeName, normalizeUsername } from "../users/user-fields.ts";
import { type UserRow, users } from "../users/users.table.ts";
import { sendVerificationLink } from "../email-verification/email-verification.service.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config"> & AccountMailCtx;

export type RegisterInput = { username: string; email: string; password: string; name?: string; invite?: string };

/**
 * Creates an account (ARCHITECTURE section 4): the very first one is the admin (and needs the
 * setup token when one is configured); after that the site setting `registration` decides, and
 * an invitation is used up in the same transaction that creates the user.
 */
export async function registerUser(ctx: Ctx, input: RegisterInput, setupToken: string | null): Promise<UserRow> {
  const username = normalizeUsername(input.username);
  const email = normalizeEmail(input.email);
  const name = normalizeName(input.name ?? "");
  const problem = passwordProblem(input.password, username, email);
  if (problem) throw badInput(problem);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();

  return withTx(ctx.db, async () => {
    const first = ((await ctx.db.select({ n: count() }).from(users).get())?.n ?? 0) === 0;
    if (first) {
      const expected = ctx.config.setupToken;
      if (expected !== null && (setupToken === null || !constantTimeEqual(setupToken, expected)))
        throw notSignedIn("The first account needs the setup token (header X-Setup-Token).");
    } else {
      const mode = (await getSiteConfig(ctx)).registration;
      // Closed means closed: an invitation made earlier does not reopen it.
      if (mode === "closed") throw denied("Registration is closed on this instance.");
      if (mode === "invite" && !input.invite) throw denied("Registration needs an invitation.");
    }
    if (await ctx.db.select({ id: users.id }).from(users).where(eq(users.username, username)).get()) throw conflict("That username is taken.");
    if (await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) throw conflict("That email address already has an account.");

    const user: UserRow = {
      id: crypto.randomUUID(),
      username,
      email,
      // The first account is the operator's own, typed in during setup: there is no one to verify
      // it with, and apps that trust `email_verified` should trust the admin's. Others are unverified.
      emailVerified: first,
      name,
      pictureUrl: "",
      passwordHash,
      role: first ? "admin" : "user",
      disabledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.insert(users).values(user).run();
    if (!first && input.invite) {
      // One use: the conditional update decides; a used, expired or other-email code changes nothing.
      const used = await ctx.db
        .update(invitations)
        .set({ usedAt: now, usedBy: user.id })
        .where(
          and(
            eq(invitations.codeHash, sha256Hex(input.invite.trim())),
            isNull(invitations.usedAt),
            gt(invitations.expiresAt, now),
            or(isNull(invitations.email), eq(invitations.email, email)),
          ),
        )
        .returning({ email: invitations.email, mailedAt: invitations.mailedAt })
        .get();
      if (!used) throw denied("That invitation is not valid: it may be used, expired or for another email.");
      // An invitation mailed to this very address was opened from its mailbox: the address is proven.
      if (used.mailedAt !== null && used.email === email) {
        user.emailVerified = true;
        await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id)).run();
      }
    }
    // Until the mailed link is used, the address stays unverified (issue 44 item 2).
    if (!user.emailVerified) await sendVerificationLink(ctx, user);
    await audit(ctx, { actorUserId: user.id, action: "user.registered", targetUserId: user.id, details: { role: user.role, invited: Boolean(input.invite) } });
    return user;
  });
}
