import { authenticateClient } from "../clients/authenticate-client.ts";
import { GRANTS } from "../grants/registry.ts";
import type { GrantContext, TokenResponse } from "../grants/grant.ts";
import { invalidRequest, unauthorizedClient, unsupportedGrantType } from "../oauth.errors.ts";

/** POST /api/oauth/token, as steps: parse, authenticate the client, check the grant type, dispatch. */
export async function tokenEndpoint(ctx: GrantContext, authorization: string | null, form: URLSearchParams): Promise<TokenResponse> {
  const grantType = form.get("grant_type");
  if (!grantType) throw invalidRequest('missing required parameter "grant_type"');
  const client = await authenticateClient(ctx, authorization, form);
  const handle = GRANTS.get(grantType);
  if (!handle) throw unsupportedGrantType(`grant_type ${grantType} is not supported`);
  if (!client.grantTypes.includes(grantType)) throw unauthorizedClient(`this client may not use ${grantType}`);
  return handle(ctx, client, form);
}
