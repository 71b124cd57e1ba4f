import { and, eq, isNull } from "drizzle-orm";
import { users } from "../../identity/users/users.table.ts";
import { invalidGrant, invalidRequest, invalidScope } from "../oauth.errors.ts";
import { parseScope } from "../protocol/scope.ts";
import { revokeGrant, supersedeRefreshToken } from "../tokens/tokens.service.ts";
import { type GrantHandler, missingParam } from "./grant.ts";
import { issueTokens } from "./issue-tokens.ts";

export const grantType = "refresh_token";

/**
 * RFC 6749 section 6 with rotation (spec 3.2): a new refresh token with the original absolute
 * expiry; the presented one is superseded, and presenting it again ends the whole grant.
 */
export const handle: GrantHandler = async (ctx, client, form) => {
  const token = form.get("refresh_token");
  if (!token) throw invalidRequest(missingParam("refresh_token"));
  const outcome = supersedeRefreshToken(ctx, token, client.clientId);
  if (outcome.kind === "replayed") {
    revokeGrant(ctx, outcome.grantId);
    throw invalidGrant("the refresh token was already used; the grant is revoked");
  }
  if (outcome.kind === "invalid") throw invalidGrant("the refresh token is not valid");
  const { grant } = outcome;
  let scopes = grant.scopes;
  const asked = form.get("scope");
  if (asked !== null) {
    const narrower = parseScope(asked);
    if (narrower === null || !narrower.every((s) => grant.scopes.includes(s))) throw invalidScope("scope must be a subset of the original grant");
    scopes = narrower;
  }
  const user = ctx.db.select().from(users).where(and(eq(users.id, grant.userId), isNull(users.disabledAt))).get();
  if (!user) throw invalidGrant("the user is no longer active");
  return issueTokens(ctx, client, user, grant, scopes, null);
};
