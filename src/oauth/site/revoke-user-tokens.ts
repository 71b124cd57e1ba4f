import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { missing } from "../../identity/users/identity.errors.ts";
import { users } from "../../identity/users/users.table.ts";
import { deviceAuthorizations } from "../device/device-authorizations.table.ts";
import { revokeUserGrants } from "../tokens/tokens.service.ts";
import { authorizationCodes } from "../tokens/tokens.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "oauth">;

/**
 * Spec 1 section 2.3 rule 9, `site:token:revoke`: ends every OAuth token of a user, in every app,
 * at once. Each live grant is revoked, which stops its access and refresh tokens (and the tokens
 * exchanged from them, RFC 8693); codes and approved device requests not yet redeemed are spent
 * too, so no token comes out of an authorization given before. Sessions, personal access tokens
 * and remembered consents stay. Answers the number of grants ended: the conditional updates
 * decide, so concurrent calls end each grant once between them. Audited.
 */
export function revokeUserOAuthTokens(ctx: Ctx, actorId: string, userId: string): Promise<number> {
  const now = ctx.clock.now();
  return withTx(ctx.db, async () => {
    if (!(await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get())) throw missing("User");
    await ctx.db
      .update(authorizationCodes)
      .set({ consumedAt: now })
      .where(and(eq(authorizationCodes.userId, userId), isNull(authorizationCodes.consumedAt)))
      .run();
    await ctx.db
      .update(deviceAuthorizations)
      .set({ consumedAt: now })
      .where(and(eq(deviceAuthorizations.userId, userId), eq(deviceAuthorizations.status, "approved"), isNull(deviceAuthorizations.consumedAt)))
      .run();
    const grants = await revokeUserGrants(ctx, userId);
    await audit(ctx, { actorUserId: actorId, action: "site.tokens_revoked", targetUserId: userId, details: { grants } });
    return grants;
  });
}
