import type { AppContext } from "../context/context.ts";
import { accessTokenCredential } from "./tokens/access-token.credential.ts";
import { revokeGrantsOnAccountEvents } from "./tokens/account-events.listener.ts";

/** What the OAuth side adds at boot: access tokens as a credential kind, and following account events. */
export function bootOAuth(ctx: AppContext): void {
  ctx.auth.credentials.register(accessTokenCredential(ctx));
  revokeGrantsOnAccountEvents(ctx);
}
