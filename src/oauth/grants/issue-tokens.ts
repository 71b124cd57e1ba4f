import type { UserRow } from "../../identity/users/users.table.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { issueIdToken } from "../tokens/id-token.ts";
import { type GrantRow, issueAccessToken, issueRefreshToken } from "../tokens/tokens.service.ts";
import type { GrantContext, TokenResponse } from "./grant.ts";

/** The token response for a grant: access token always, refresh token with offline_access, ID token with openid. */
export async function issueTokens(ctx: GrantContext, client: ClientRow, user: UserRow, grant: GrantRow, scopes: string[], nonce: string | null): Promise<TokenResponse> {
  const access = issueAccessToken(ctx, grant, scopes);
  const response: TokenResponse = { access_token: access.token, token_type: "Bearer", expires_in: access.expiresIn, scope: scopes.join(" ") };
  if (grant.refreshExpiresAt !== null) response.refresh_token = issueRefreshToken(ctx, grant);
  if (scopes.includes("openid")) response.id_token = await issueIdToken(ctx, client, user, { ...grant, scopes }, nonce);
  return response;
}
