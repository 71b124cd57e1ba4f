import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { createClient } from "../../oauth/clients/clients.service.ts";
import { oauthClients } from "../../oauth/clients/clients.table.ts";

/**
 * The built-in workspace app on this instance (ARCHITECTURE section 4, "Workspace sign-in"): a
 * public client with PKCE whose ID tokens carry the `teams` claim, marked verified. Returns its id.
 */
export function registerWorkspaceClient(ctx: Pick<AppContext, "db" | "clock">, redirectUri: string): string {
  const { client } = createClient(ctx, null, {
    name: "Cairn workspace",
    description: "The shared todo workspace of this Cairn.",
    redirect_uris: [{ uri: redirectUri, match: "equals" }],
    public: true,
    // offline_access: the workspace refreshes its IdP token to keep resolving team members.
    scopes: ["openid", "profile", "email", "offline_access", "teams:read"],
    oidc_fields: ["teams"],
  });
  ctx.db.update(oauthClients).set({ isVerified: true }).where(eq(oauthClients.clientId, client.clientId)).run();
  return client.clientId;
}
