import { CROSS_APP_SCOPE } from "../../contract/scopes.ts";
import { withTx } from "../../db/tx.ts";
import { invalidGrant, invalidRequest, invalidScope, invalidTarget, unauthorizedClient } from "../protocol/oauth.errors.ts";
import { requestedResources } from "../protocol/resource.ts";
import { parseScope } from "../protocol/scope.ts";
import { createGrant, findActiveAccessToken } from "../tokens/tokens.service.ts";
import { type Grant, type GrantContext, missingParam, type TokenRequest } from "./grant.ts";
import { storeTokens } from "./issue-tokens.ts";

/** RFC 8693 section 3: the one token type exchanged here, in and out. */
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";

/** A cross-app scope's client id, or null. */
const crossAppClient = (scope: string) => CROSS_APP_SCOPE.exec(scope)?.[1] ?? null;

/** RFC 8693 section 2.1 `audience`: logical names (client ids, say), as many as `resource`s. */
function audiences(params: URLSearchParams): string[] {
  const resources = requestedResources(params);
  const names = params.getAll("audience").map((a) => a.trim());
  if (names.some((a) => a === "" || a.length > 256)) throw invalidTarget("audience must be 1 to 256 characters");
  return [...new Set([...resources, ...names])];
}

/**
 * RFC 8693 per spec 1 section 4.3: an authenticated confidential client exchanges an access token
 * issued to it, or one carrying the cross-app scope `app:<its client_id>:*`, for a new access
 * token for the same user: its scope a subset of the subject's (never the cross-app scopes
 * themselves), its audience from `resource`/`audience`, not refreshable, no ID token.
 */
async function handle(ctx: GrantContext, request: TokenRequest) {
  const { client, params } = request;
  if (client.isPublic) throw unauthorizedClient("a public client cannot exchange tokens");
  const subjectToken = params.get("subject_token");
  if (!subjectToken) throw invalidRequest(missingParam("subject_token"));
  const subjectType = params.get("subject_token_type");
  if (!subjectType) throw invalidRequest(missingParam("subject_token_type"));
  if (subjectType !== ACCESS_TOKEN_TYPE) throw invalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  const requestedType = params.get("requested_token_type");
  if (requestedType !== null && requestedType !== ACCESS_TOKEN_TYPE) throw invalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);

  const subject = findActiveAccessToken(ctx, subjectToken);
  if (!subject) throw invalidGrant("the subject token is not an active access token");
  const mayExchange = subject.clientId === client.clientId || subject.scopes.some((s) => crossAppClient(s) === client.clientId);
  if (!mayExchange) throw invalidGrant("the subject token was not issued to this client and names no cross-app scope for it");
  // A sender-constrained token is only good with its key: handing it over must not launder it.
  if (subject.jkt !== null) throw invalidGrant("a DPoP-bound subject token cannot be exchanged");

  const grantable = subject.scopes.filter((s) => crossAppClient(s) === null && s !== "offline_access");
  const asked = params.get("scope");
  const scopes = asked === null ? grantable : parseScope(asked);
  if (scopes === null || scopes.length === 0 || !scopes.every((s) => grantable.includes(s)))
    throw invalidScope("scope must be a non-empty subset of the subject token's scope");
  const audience = audiences(params);

  const response = withTx(ctx.db, () => {
    const { grant: from } = subject;
    const grant = createGrant(ctx, {
      clientId: client.clientId,
      userId: subject.user.id,
      scopes,
      sid: from.sid,
      authTime: from.authTime,
      amr: from.amr,
      acr: from.acr,
      // Not refreshable (spec 4.3): the new token lives no longer than an access token.
      refreshExpiresAt: null,
      dpopJkt: request.senderConstraint?.jkt ?? null,
      resources: audience,
    });
    return storeTokens(ctx, grant, scopes, request, audience);
  });
  return { ...response, issued_token_type: ACCESS_TOKEN_TYPE };
}

export const tokenExchange: Grant = {
  grantType: TOKEN_EXCHANGE_GRANT,
  byDefault: false,
  params: ["subject_token", "subject_token_type", "requested_token_type", "scope", "resource", "audience"],
  handle,
};
