import type { AppContext } from "../context/context.ts";
import { registerOAuthPurges } from "./oauth.purge.ts";
import { createOAuthRuntime } from "./oauth.context.ts";
import { accessTokenCredential } from "./tokens/access-token.credential.ts";
import { revokeGrantsOnAccountEvents } from "./oauth.account-events.ts";

/** What the OAuth side adds at boot: its grant types, access tokens as a credential kind, and following account events. */
export function bootOAuth(ctx: AppContext): void {
  registerOAuthPurges(ctx);
  ctx.oauth = createOAuthRuntime(ctx.db, { dpopNonce: ctx.secrets.derive("dpop nonce"), tokenIds: ctx.secrets.derive("token ids") });
  ctx.metrics.knownGrantTypes(ctx.oauth.grantTypes);
  ctx.access.credentials.register(accessTokenCredential(ctx));
  revokeGrantsOnAccountEvents(ctx);
}
