import { invalidScope, unauthorizedClient } from "../protocol/oauth.errors.ts";
import { parseScope } from "../protocol/scope.ts";
import { issueMachineToken } from "../tokens/machine-tokens.service.ts";
import { type Grant, type GrantContext, type TokenRequest, tokenTypeFor } from "./grant.ts";
import { tokenResources } from "./issue-tokens.ts";

/**
 * RFC 6749 section 4.4: a confidential client acting for itself (a service account). Its scopes
 * are only those its owner allowed for machine access (`client_credentials_scopes`, never a
 * user, team or site scope); the token's `sub` is the client; no refresh token, no ID token.
 */
async function handle(ctx: GrantContext, request: TokenRequest) {
  const { client, params } = request;
  if (client.isPublic) throw unauthorizedClient("a public client has no credentials to act on its own");
  const allowed = client.clientCredentialsScopes;
  const asked = params.get("scope");
  const scopes = asked === null ? allowed : parseScope(asked);
  if (scopes === null || scopes.length === 0 || !scopes.every((s) => allowed.includes(s)))
    throw invalidScope("scope must be among the app's client credentials scopes", "scope must be among those the app's owner allowed for machine access");
  const audience = tokenResources(params, []);
  const jkt = request.senderConstraint?.jkt ?? null;
  const access = await issueMachineToken(ctx, client.clientId, scopes, audience, jkt);
  return { access_token: access.token, token_type: tokenTypeFor(request.senderConstraint), expires_in: access.expiresIn, scope: scopes.join(" ") };
}

export const clientCredentials: Grant = { grantType: "client_credentials", byDefault: false, params: ["scope", "resource"], handle };
