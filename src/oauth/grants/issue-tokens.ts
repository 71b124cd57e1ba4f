import type { UserRow } from "../../identity/users/users.table.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { issueIdToken } from "../tokens/id-token.ts";
import { type GrantRow, issueAccessToken, issueRefreshToken } from "../tokens/tokens.service.ts";
import { invalidTarget } from "../protocol/oauth.errors.ts";
import { narrowedResources, requestedResources } from "../protocol/resource.ts";
import { type GrantContext, type TokenRequest, type TokenResponse, tokenTypeFor } from "./grant.ts";

/** RFC 8707 section 2.2: the token request's `resource`s, well formed and among those granted (all of them when none is named). */
export function tokenResources(params: URLSearchParams, granted: readonly string[]): string[] {
  const narrowed = narrowedResources(granted, requestedResources(params));
  if (narrowed === null) throw invalidTarget("resource must be one of those granted");
  return narrowed;
}

/**
 * Stores the access token (and the refresh token, with offline_access). Only database work, so a
 * grant handler runs it inside the transaction of its other writes: one commit, one fsync.
 */
export async function storeTokens(
  ctx: GrantContext,
  grant: GrantRow,
  scopes: string[],
  request: Pick<TokenRequest, "senderConstraint">,
  resources: string[] = grant.resources,
): Promise<TokenResponse> {
  const access = await issueAccessToken(ctx, grant, scopes, request.senderConstraint?.jkt ?? null, resources);
  const response: TokenResponse = {
    access_token: access.token,
    token_type: tokenTypeFor(request.senderConstraint),
    expires_in: access.expiresIn,
    scope: scopes.join(" "),
  };
  if (grant.refreshExpiresAt !== null) response.refresh_token = await issueRefreshToken(ctx, grant);
  return response;
}

/** Adds the ID token (with openid) to a stored token response: signing needs no database write. */
export async function withIdToken(
  ctx: GrantContext,
  response: TokenResponse,
  client: ClientRow,
  user: UserRow,
  grant: GrantRow,
  scopes: string[],
  nonce: string | null,
): Promise<TokenResponse> {
  if (scopes.includes("openid")) response.id_token = await issueIdToken(ctx, client, user, { ...grant, scopes }, nonce);
  return response;
}
