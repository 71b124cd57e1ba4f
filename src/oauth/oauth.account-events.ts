import type { AppContext } from "../context/context.ts";
import { queueBackchannelLogouts } from "./logout/backchannel.service.ts";
import { revokeUserGrants } from "./tokens/tokens.service.ts";

/**
 * A changed password or an account whose credentials were revoked ends every grant the user gave
 * an app: refresh tokens, and the access tokens hanging off them, stop at once. Ended sessions
 * queue back-channel logout tokens for the apps signed in through them.
 */
export function revokeGrantsOnAccountEvents(ctx: AppContext): void {
  ctx.accountEvents.on((event) => {
    if (event.type === "password_changed" || event.type === "credentials_revoked") revokeUserGrants(ctx, event.userId);
    // OIDC Back-Channel Logout: every app that got tokens in an ended session is told.
    if (event.type === "sessions_ended") queueBackchannelLogouts(ctx, event.userId, event.sids);
  });
}
