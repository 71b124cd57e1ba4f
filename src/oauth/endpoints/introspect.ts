import type { AppContext } from "../../context/context.ts";
import { authenticateClient, authenticatedAtOnce } from "../clients/authenticate-client.ts";
import { invalidClient, invalidRequest } from "../protocol/oauth.errors.ts";
import { tokenTypeFor } from "../grants/grant.ts";
import { findMachineToken } from "../tokens/machine-tokens.service.ts";
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
  const token = form.get("token");
  // A secret is checked without awaiting anything; only an assertion waits (the client's keys).
  // The token is looked up once the client is authenticated, and never for a public client.
  const client = authenticatedAtOnce(ctx, authorization, form) ?? (await authenticateClient(ctx, authorization, form));
  // RFC 7662 section 2.1 and spec 4.4: introspection needs client credentials; a public client has none.
  if (client.tokenEndpointAuthMethod === "none") throw invalidClient("Introspection needs client credentials; public clients cannot introspect.");
  if (!token) throw invalidRequest('missing required parameter "token"');
  const active = findActiveAccessToken(ctx, token);
  if (active) {
    if (active.clientId !== client.clientId) return { active: false };
    const { grant } = active;
    return { ...described(ctx.config.issuer, { ...active, sub: active.user.id }), acr: grant.acr, auth_time: grant.authTime, amr: grant.amr };
  }
  // A client credentials token: the client is its own subject.
  const machine = findMachineToken(ctx, token);
  if (!machine || machine.clientId !== client.clientId) return { active: false };
  return described(ctx.config.issuer, { ...machine, sub: machine.clientId });
}

type Described = { sub: string; clientId: string; scopes: string[]; jkt: string | null; audience: string[]; expiresAt: number; createdAt: number };

/** The fields every active token answers (spec 1 section 2.4). */
function described(issuer: string, t: Described) {
  return {
    active: true,
    sub: t.sub,
    scope: t.scopes.join(" "),
    client_id: t.clientId,
    token_type: tokenTypeFor(t.jkt === null ? null : { kind: "dpop", jkt: t.jkt }),
    exp: Math.floor(t.expiresAt / 1000),
    iat: Math.floor(t.createdAt / 1000),
    // RFC 8707: the resources the token was issued for; otherwise the client itself.
    aud: t.audience.length === 0 ? t.clientId : t.audience.length === 1 ? t.audience[0] : t.audience,
    iss: issuer,
    // RFC 9449 section 6.2: the key a DPoP-bound token is bound to.
    ...(t.jkt === null ? {} : { cnf: { jkt: t.jkt } }),
  };
}
