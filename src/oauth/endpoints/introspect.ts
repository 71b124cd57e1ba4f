import type { AppContext } from "../../context/context.ts";
import { authenticateClient } from "../clients/authenticate-client.ts";
import { invalidClient, invalidRequest } from "../protocol/oauth.errors.ts";
import { tokenTypeFor } from "../grants/grant.ts";
import { findMachineToken } from "../tokens/machine-tokens.service.ts";
import { findActiveAccessToken, findActiveRefreshToken } from "../tokens/tokens.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "outbound" | "log" | "oauth">;
/** One kind of token described for the calling client, or null when the value is not a live one of that kind issued to it. */
type Describe = (ctx: Ctx, token: string, clientId: string) => Promise<Record<string, unknown> | null>;

/**
 * RFC 7662: the caller's own live access and refresh tokens are described; anything else,
 * including another client's token, is `{active:false}` (spec 1 section 2.4).
 */
export async function introspect(ctx: Ctx, authorization: string | null, form: URLSearchParams) {
  const token = form.get("token");
  // The token is looked up once the client is authenticated, and never for a public client.
  const client = await authenticateClient(ctx, authorization, form);
  // RFC 7662 section 2.1 and spec 4.4: introspection needs client credentials; a public client has none.
  if (client.tokenEndpointAuthMethod === "none") throw invalidClient("Introspection needs client credentials; public clients cannot introspect.");
  if (!token) throw invalidRequest('missing required parameter "token"');
  // RFC 7662 section 2.1: `token_type_hint` only orders the search, which goes on through every kind.
  const kinds = form.get("token_type_hint") === "refresh_token" ? REFRESH_FIRST : ACCESS_FIRST;
  for (const describe of kinds) {
    const found = await describe(ctx, token, client.clientId);
    if (found) return found;
  }
  return { active: false };
}

const accessToken: Describe = async (ctx, token, clientId) => {
  const active = await findActiveAccessToken(ctx, token);
  if (!active || active.clientId !== clientId) return null;
  const { grant } = active;
  return { ...described(ctx.config.issuer, { ...active, sub: active.user.id }), acr: grant.acr, auth_time: grant.authTime, amr: grant.amr };
};

/** A client credentials token: the client is its own subject. */
const machineToken: Describe = async (ctx, token, clientId) => {
  const machine = await findMachineToken(ctx, token);
  if (!machine || machine.clientId !== clientId) return null;
  return described(ctx.config.issuer, { ...machine, sub: machine.clientId });
};

/**
 * A refresh token: its grant's scope, user and authentication, its absolute expiry. No
 * `token_type` (RFC 7662 section 2.2 means an access token's type, RFC 6749 section 5.1) and no
 * `aud` (it is only ever presented here); `cnf` when its grant is DPoP-bound (RFC 9449 section 5).
 */
const refreshToken: Describe = async (ctx, token, clientId) => {
  const active = await findActiveRefreshToken(ctx, token);
  if (!active || active.clientId !== clientId) return null;
  const { grant } = active;
  return {
    active: true,
    sub: active.user.id,
    scope: grant.scopes.join(" "),
    client_id: active.clientId,
    exp: Math.floor(active.expiresAt / 1000),
    iat: Math.floor(active.createdAt / 1000),
    iss: ctx.config.issuer,
    acr: grant.acr,
    auth_time: grant.authTime,
    amr: grant.amr,
    ...(grant.dpopJkt === null ? {} : { cnf: { jkt: grant.dpopJkt } }),
  };
};

const ACCESS_FIRST: Describe[] = [accessToken, machineToken, refreshToken];
const REFRESH_FIRST: Describe[] = [refreshToken, accessToken, machineToken];

type Described = { sub: string; clientId: string; scopes: string[]; jkt: string | null; audience: string[]; expiresAt: number; createdAt: number };

/** The fields every active access token answers (spec 1 section 2.4). */
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
