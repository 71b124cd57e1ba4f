import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { createClient } from "../../oauth/clients/clients.service.ts";
import { oauthClients } from "../../oauth/clients/clients.table.ts";

const NAME = "Cairn workspace";

/** Where the workspace's Sign out ends: the signed-out home, its registered post-logout redirect URI. */
export const signedOutHome = (issuer: string) => `${issuer}/`;

/**
 * The built-in workspace app on this instance (ARCHITECTURE section 4, "Workspace sign-in"): a
 * public client with PKCE whose ID tokens carry the `teams` claim, verified and first-party (the
 * instance registered it, so nobody is asked to allow it), with the signed-out home as its
 * post-logout redirect URI. One made before for the same callback is used again (setup run twice,
 * a repaired config), else a new one is registered. Only the instance's own clients are candidates
 * (no owner, not dynamically registered): an app named alike by anyone else is never picked up.
 * Returns its id.
 */
export async function ensureWorkspaceClient(ctx: Pick<AppContext, "db" | "clock" | "config" | "oauth">, redirectUri: string): Promise<string> {
  const candidates = await ctx.db
    .select()
    .from(oauthClients)
    .where(and(isNull(oauthClients.ownerUserId), isNull(oauthClients.registrationTokenHash), eq(oauthClients.firstParty, true), eq(oauthClients.name, NAME)))
    .all();
  const existing = candidates.find((c) => c.isPublic && c.redirectUris.some((r) => r.match === "equals" && r.uri === redirectUri));
  if (existing) return existing.clientId;
  const { client } = await createClient(
    ctx,
    null,
    {
      name: NAME,
      description: "The shared todo workspace of this Cairn.",
      redirect_uris: [{ uri: redirectUri, match: "equals" }],
      post_logout_redirect_uris: [signedOutHome(ctx.config.issuer)],
      public: true,
      // offline_access: the workspace refreshes its IdP token to keep resolving team members.
      scopes: ["openid", "profile", "email", "offline_access", "teams:read"],
      oidc_fields: ["teams"],
    },
    { verified: true, firstParty: true },
  );
  return client.clientId;
}

/**
 * The post-logout redirect URI the workspace may send with its logout: the signed-out home, when
 * `clientId` is a client of this instance that registered it. Null otherwise (another IdP, or an
 * operator's own client): the IdP then shows its own signed-out page.
 */
export async function workspacePostLogoutUri(ctx: Pick<AppContext, "config" | "oauth">, clientId: string): Promise<string | null> {
  const home = signedOutHome(ctx.config.issuer);
  return (await ctx.oauth.clients.find(clientId))?.postLogoutRedirectUris.includes(home) ? home : null;
}
