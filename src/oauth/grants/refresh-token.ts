import { invalidGrant, invalidRequest, invalidScope } from "../protocol/oauth.errors.ts";
import { parseScope } from "../protocol/scope.ts";
import { findRefreshToken, revokeGrant, supersedeRefreshToken } from "../tokens/tokens.service.ts";
import { type Grant, type GrantContext, missingParam, type TokenRequest } from "./grant.ts";
import { storeTokens, tokenResources, withIdToken } from "./issue-tokens.ts";
import { withTx } from "../../db/tx.ts";

/**
 * RFC 6749 section 6 with rotation (spec 3.2): a new refresh token with the original absolute
 * expiry; the presented one is superseded, and presenting it again ends the whole grant. A
 * DPoP-bound grant's new access token is bound to the same key (the proof checked above).
 */
async function handle(ctx: GrantContext, request: TokenRequest) {
  const { client, params } = request;
  const token = params.get("refresh_token");
  if (!token) throw invalidRequest(missingParam("refresh_token"));
  const found = await findRefreshToken(ctx, token, client.clientId);
  if (found.kind === "replayed") throw await replayed(ctx, found.grantId);
  if (found.kind === "invalid") throw invalidGrant("the refresh token is not valid");
  const { grant } = found;
  // RFC 9449 section 5: a bound grant refreshes only with a proof from its key.
  if (grant.dpopJkt !== null && request.senderConstraint?.jkt !== grant.dpopJkt)
    throw invalidGrant(
      request.senderConstraint ? "the DPoP proof's key is not the one the refresh token is bound to" : "the refresh token is DPoP-bound: a proof is required",
    );
  // Checked before the token is spent: a refused request must leave the client its refresh token.
  const scopes = narrowedScopes(grant.scopes, params.get("scope"));
  const resources = tokenResources(params, grant.resources);
  const user = await ctx.identity.users.findActive(grant.userId);
  if (!user) throw invalidGrant("the user is no longer active");
  // Rotation and the new tokens commit together: one transaction, one fsync.
  const response = await withTx(ctx.db, async () =>
    (await supersedeRefreshToken(ctx, found.id)) ? await storeTokens(ctx, grant, scopes, request, resources) : null,
  );
  if (response === null) throw await replayed(ctx, grant.id);
  return withIdToken(ctx, response, client, user, grant, scopes, null);
}

export const refreshToken: Grant = { grantType: "refresh_token", byDefault: true, params: ["refresh_token", "scope", "resource"], handle };

/** Spec 3.2: a superseded token presented again ends the whole grant. */
async function replayed(ctx: GrantContext, grantId: string) {
  await revokeGrant(ctx, grantId);
  return invalidGrant("the refresh token was already used; the grant is revoked");
}

/** RFC 6749 section 6: `scope` may only narrow what was granted; absent, it is the whole grant. */
function narrowedScopes(granted: string[], asked: string | null): string[] {
  if (asked === null) return granted;
  const narrower = parseScope(asked);
  if (narrower === null || narrower.length === 0 || !narrower.every((s) => granted.includes(s)))
    throw invalidScope("scope must be a non-empty subset of the original grant");
  return narrower;
}
