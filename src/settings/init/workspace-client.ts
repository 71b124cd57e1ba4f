import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { createClient } from "../../oauth/clients/clients.service.ts";
import { oauthClients } from "../../oauth/clients/clients.table.ts";

const NAME = "Cairn workspace";

/**
 * The built-in workspace app on this instance (ARCHITECTURE section 4, "Workspace sign-in"): a
 * public client with PKCE whose ID tokens carry the `teams` claim, marked verified. One made
 * before for the same callback is used again (setup run twice, a repaired config), else a new
 * one is registered. Returns its id.
 */
export function ensureWorkspaceClient(ctx: Pick<AppContext, "db" | "clock" | "oauth">, redirectUri: string): string {
  const existing = ctx.db
    .select()
    .from(oauthClients)
    .where(and(isNull(oauthClients.ownerUserId), eq(oauthClients.name, NAME)))
    .all()
    .find((c) => c.isPublic && c.redirectUris.some((r) => r.match === "equals" && r.uri === redirectUri));
  if (existing) return existing.clientId;
  const { client } = createClient(ctx, null, {
    name: NAME,
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
