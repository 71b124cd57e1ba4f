import type { AppContext } from "../../context/context.ts";
import { authenticateClient } from "../clients/authenticate-client.ts";
import { invalidClient, invalidRequest } from "../protocol/oauth.errors.ts";
import { tokenTypeFor } from "../grants/grant.ts";
import { findMachineToken, type MachineToken } from "../tokens/machine-tokens.service.ts";
import { findActiveAccessToken } from "../tokens/tokens.service.ts";

/**
 * RFC 7662: active access tokens issued to the calling client are described; anything else,
 * including another client's token, is `{active:false}` (spec 1 section 2.4).
 */
export async function introspect(
  ctx: Pick<AppContext, "db" | "clock" | "config" | "outbound" | "log" | "oauth">,
  authorization: string | null,
  form: URLSearchParams,
) {
  const client = await authenticateClient(ctx, authorization, form);
  // RFC 7662 section 2.1 and spec 4.4: introspection needs client credentials; a public client has none.
  if (client.tokenEndpointAuthMethod === "none") throw invalidClient("Introspection needs client credentials; public clients cannot introspect.");
  const token = form.get("token");
  if (!token) throw invalidRequest('missing required parameter "token"');
  const active = findActiveAccessToken(ctx, token);
  if (!active) return describeMachineToken(ctx, findMachineToken(ctx, token), client.clientId);
  if (active.clientId !== client.clientId) return { active: false };
  return {
    active: true,
    sub: active.user.id,
    scope: active.scopes.join(" "),
    client_id: active.clientId,
    token_type: tokenTypeFor(active.jkt === null ? null : { kind: "dpop", jkt: active.jkt }),
    exp: Math.floor(active.expiresAt / 1000),
    iat: Math.floor(active.createdAt / 1000),
    // RFC 8707: the resources the token was issued for; otherwise the client itself.
    aud: active.audience.length === 0 ? active.clientId : active.audience.length === 1 ? active.audience[0] : active.audience,
    iss: ctx.config.issuer,
    acr: active.grant.acr,
    auth_time: active.grant.authTime,
    amr: active.grant.amr,
    // RFC 9449 section 6.2: the key a DPoP-bound token is bound to.
    ...(active.jkt === null ? {} : { cnf: { jkt: active.jkt } }),
  };
}

/** A client credentials token of the caller: the client is its subject (RFC 7662 section 2.2). */
function describeMachineToken(ctx: Pick<AppContext, "config">, token: MachineToken | null, callerId: string) {
  if (!token || token.clientId !== callerId) return { active: false };
  return {
    active: true,
    sub: token.clientId,
    scope: token.scopes.join(" "),
    client_id: token.clientId,
    token_type: tokenTypeFor(token.jkt === null ? null : { kind: "dpop", jkt: token.jkt }),
    exp: Math.floor(token.expiresAt / 1000),
    iat: Math.floor(token.createdAt / 1000),
    aud: token.audience.length === 0 ? token.clientId : token.audience.length === 1 ? token.audience[0] : token.audience,
    iss: ctx.config.issuer,
    ...(token.jkt === null ? {} : { cnf: { jkt: token.jkt } }),
  };
}
