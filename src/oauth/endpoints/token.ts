import { authenticateClient } from "../clients/authenticate-client.ts";
import type { GrantContext, TokenResponse } from "../grants/grant.ts";
import { grantFor } from "../grants/index.ts";
import { DpopRefusal, nonceHeader, requestProof } from "../dpop/dpop.service.ts";
import { dpopTokenError, invalidRequest, unauthorizedClient, unsupportedGrantType } from "../protocol/oauth.errors.ts";

/** Only the parameters the grant reads: it cannot see, or be confused by, anything else sent. */
function pick(form: URLSearchParams, names: readonly string[]): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of names) for (const value of form.getAll(name)) params.append(name, value);
  return params;
}

/**
 * POST /api/oauth/token, as steps: the form (parsed and free of repeats by the route), the grant
 * type, the client's authentication, whether it may use the grant, its DPoP proof if any (required
 * for a client registered with dpop_bound_access_tokens), then the grant with the request.
 */
export async function tokenEndpoint(ctx: GrantContext, request: Request, form: URLSearchParams): Promise<TokenResponse> {
  const grantType = form.get("grant_type");
  if (!grantType) throw invalidRequest('missing required parameter "grant_type"');
  const client = await authenticateClient(ctx, request.headers.get("authorization"), form);
  const grant = grantFor(grantType);
  if (!grant) throw unsupportedGrantType(`grant_type ${grantType} is not supported`);
  if (!client.grantTypes.includes(grantType)) throw unauthorizedClient(`this client may not use ${grantType}`);
  const url = `${ctx.config.issuer}${new URL(request.url).pathname}`;
  const proof = await tokenRequestProof(ctx, request, url);
  if (!proof && client.dpopBoundAccessTokens) throw invalidRequest("this client must send a DPoP proof (dpop_bound_access_tokens)");
  const answer = await grant.handle(ctx, {
    client,
    params: pick(form, grant.params),
    headers: request.headers,
    method: request.method,
    url,
    now: ctx.clock.now(),
    senderConstraint: proof ? { kind: "dpop", jkt: proof.jkt } : undefined,
  });
  ctx.metrics.tokenIssued(grantType);
  return answer;
}

/** RFC 9449 section 5: the proof of a token request, refused in the token endpoint's own error shape. */
async function tokenRequestProof(ctx: GrantContext, request: Request, url: string) {
  try {
    return await requestProof(ctx, request, { method: "POST", url });
  } catch (e) {
    if (e instanceof DpopRefusal) throw dpopTokenError(e.code, e.detail, nonceHeader(ctx)["dpop-nonce"]);
    throw e;
  }
}
