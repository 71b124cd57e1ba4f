import * as client from "openid-client";
import type { AppContext } from "../../context/context.ts";
import { workspacePostLogoutUri } from "../../settings/init/workspace-client.ts";
import type { WsSessionRow } from "../storage/session.table.ts";
import { idpConfiguration } from "./idp-client.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "workspace" | "oauth" | "log">;

/**
 * The longest hint sent in the logout URL: proxies commonly refuse request lines past 8 KiB, and an
 * ID token grows with the `teams` claim. Without the hint the IdP asks the person to confirm.
 */
const MAX_HINT = 7_000;
// Bound to its session, like the IdP's tokens (idp-tokens.ts).
const purpose = (sessionId: string) => `ws_idp_id_token:${sessionId}`;

/** The sign-in's ID token sealed for its session, kept as the hint of a later logout; null when none came. */
export function sealIdTokenHint(ctx: Pick<Ctx, "secrets">, sessionId: string, idToken: string | undefined): string | null {
  return idToken ? ctx.secrets.seal(idToken, purpose(sessionId)) : null;
}

/**
 * Where the browser goes so that signing out of the workspace signs out of its identity provider
 * too (OIDC RP-Initiated Logout 1.0 section 2): the IdP's end_session_endpoint with the session's
 * ID token as `id_token_hint` (the IdP then ends its session without asking), the client id, and
 * the signed-out home as `post_logout_redirect_uri` where it is registered. Null when the IdP
 * offers no such endpoint or cannot be reached: the workspace session is ended all the same.
 */
export async function idpLogoutUrl(ctx: Ctx, ended: Pick<WsSessionRow, "id" | "idpIdTokenSealed">): Promise<string | null> {
  let config: client.Configuration;
  try {
    ({ config } = await idpConfiguration(ctx));
  } catch (e) {
    ctx.log.warn("workspace sign-out: the identity provider could not be reached; only the workspace session ended", { error: (e as Error).message });
    return null;
  }
  if (!config.serverMetadata().end_session_endpoint) return null;
  const clientId = config.clientMetadata().client_id;
  const params: Record<string, string> = { client_id: clientId };
  const hint = ended.idpIdTokenSealed ? ctx.secrets.open(ended.idpIdTokenSealed, purpose(ended.id)) : null;
  if (hint && hint.length <= MAX_HINT) params.id_token_hint = hint;
  const home = await workspacePostLogoutUri(ctx, clientId);
  if (home) params.post_logout_redirect_uri = home;
  return client.buildEndSessionUrl(config, params).href;
}
