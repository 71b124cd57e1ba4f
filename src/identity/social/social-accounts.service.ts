import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { hasPasskeys } from "../passkeys/passkeys.service.ts";
import { conflict, missing } from "../users/identity.errors.ts";
import { NO_PASSWORD } from "../users/passwords.ts";
import type { UserRow } from "../users/users.table.ts";
import { identityProviders, socialAccounts } from "./social.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;

/** The user's linked accounts with their provider's slug and name. */
export function listSocialAccounts(ctx: Pick<Ctx, "db">, userId: string) {
  return ctx.db
    .select({ account: socialAccounts, slug: identityProviders.slug, name: identityProviders.name, enabled: identityProviders.enabled })
    .from(socialAccounts)
    .innerJoin(identityProviders, eq(identityProviders.id, socialAccounts.providerId))
    .where(eq(socialAccounts.userId, userId))
    .orderBy(asc(socialAccounts.createdAt))
    .all();
}

type Listed = Awaited<ReturnType<typeof listSocialAccounts>>[number];

/** Spec 1 section 2.5's `social_accounts` entry: {id, provider, provider_user_id}. */
export const socialClaim = ({ account, slug }: Listed) => ({ id: account.id, provider: slug, provider_user_id: account.providerUserId });

export const socialAccountView = (row: Listed) => ({
  ...socialClaim(row),
  provider_name: row.name,
  login: row.account.login,
  email: row.account.email,
  created_at: row.account.createdAt,
  last_used_at: row.account.lastUsedAt,
});

export const hasPassword = (user: UserRow) => user.passwordHash !== NO_PASSWORD;

/**
 * Unlinks one of the user's accounts. The last way into an account (no password, no passkey, no
 * other link) stays: unlinking it would lock the person out.
 */
export async function unlinkSocialAccount(ctx: Ctx, user: UserRow, id: string): Promise<void> {
  // Check and delete in one transaction: two unlinks at once cannot each leave the other as the way in.
  await withTx(ctx.db, async () => {
    const mine = await listSocialAccounts(ctx, user.id);
    const target = mine.find((row) => row.account.id === id);
    if (!target) throw missing("Linked account");
    // A link to a provider that is turned off signs no one in: it is no way in.
    const otherWaysIn = mine.filter((row) => row.account.id !== id && row.enabled).length;
    if (!hasPassword(user) && !(await hasPasskeys(ctx, user.id)) && otherWaysIn === 0)
      throw conflict(`This is the only way into your account. Set a password or add a passkey first, then unlink ${target.name}.`);
    await ctx.db
      .delete(socialAccounts)
      .where(and(eq(socialAccounts.id, id), eq(socialAccounts.userId, user.id)))
      .run();
    await audit(ctx, { actorUserId: user.id, action: "user.social_unlinked", targetUserId: user.id, details: { provider: target.slug } });
  });
}
