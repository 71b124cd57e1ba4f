import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { revokeUserOAuthTokens } from "./revoke-user-tokens.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { RevokedTokens } from "../../contract/api/authorization.ts";

/**
 * The site API's part that ends tokens (`/api/oauth/site`, ARCHITECTURE section 4b): a site
 * administrator, or an app holding `site:token:revoke`, revokes every OAuth token of any user.
 * It lives with the tokens it ends; the rest of the site API is identity's (admin/site.routes.ts).
 */
export function siteTokensRoutes(ctx: AppContext) {
  return new Elysia({ name: "site-tokens-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .post(
      "/api/oauth/site/users/:id/revoke-tokens",
      async ({ principal, params }) => ({ revoked: await revokeUserOAuthTokens(ctx, principal.user.id, params.id) }),
      {
        auth: { admin: true, scope: "site:token:revoke" },
        response: RevokedTokens,
      },
    );
}
