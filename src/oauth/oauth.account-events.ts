import { eq } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { queueBackchannelLogouts } from "./logout/backchannel.service.ts";
import { revokeUserGrants } from "./tokens/tokens.service.ts";
import { interactions } from "./endpoints/interactions.table.ts";

/**
 * A changed password or an account whose credentials were revoked ends every grant the user gave
 * an app: refresh tokens, and the access tokens hanging off them, stop at once. Ended sessions
 * queue back-channel logout tokens for the apps signed in through them.
 */
export function revokeGrantsOnAccountEvents(ctx: AppContext): void {
  ctx.accountEvents.on(async (event) => {
    if (event.type === "password_changed" || event.type === "credentials_revoked") await revokeUserGrants(ctx, event.userId);
    // OIDC Back-Channel Logout: every app that got tokens in an ended session is told.
    if (event.type === "sessions_ended") await queueBackchannelLogouts(ctx, event.userId, event.sids);
    // A deleted account's authorization requests under way go too (its codes and grants go with the user row).
    if (event.type === "credentials_revoked" && event.reason === "deleted")
      await ctx.db.delete(interactions).where(eq(interactions.userId, event.userId)).run();
  });
}
