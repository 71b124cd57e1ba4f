import { and, eq, gt, isNull } from "drizzle-orm";
import * as client from "openid-client";
import type { AppContext } from "../../context/context.ts";
import { idpConfiguration } from "./idp-client.ts";
import { type WsSessionRow, wsSessions } from "../storage/session.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "workspace">;
type TokenColumns = Pick<WsSessionRow, "idpAccessTokenSealed" | "idpRefreshTokenSealed" | "idpAccessExpiresAt">;

/** Renew a little early, so a token does not expire on its way to the IdP. */
const EARLY_MS = 30_000;
// The purpose binds each sealed value to its session and role: one cannot be swapped for another.
const accessPurpose = (sessionId: string) => `ws_idp_access_token:${sessionId}`;
const refreshPurpose = (sessionId: string) => `ws_idp_refresh_token:${sessionId}`;

/** What the IdP's token endpoint answered, as far as the workspace keeps it. */
export type IdpTokenResponse = Pick<client.TokenEndpointResponse, "access_token" | "refresh_token" | "expires_in" | "id_token">;

/** The token columns of a workspace session: both tokens sealed at rest with the instance key. */
export function sealIdpTokens(
  ctx: Pick<Ctx, "clock" | "secrets">,
  sessionId: string,
  tokens: IdpTokenResponse,
  keptRefresh: string | null = null,
): TokenColumns {
  const refresh = tokens.refresh_token ?? keptRefresh;
  return {
    idpAccessTokenSealed: ctx.secrets.seal(tokens.access_token, accessPurpose(sessionId)),
    idpRefreshTokenSealed: refresh ? ctx.secrets.seal(refresh, refreshPurpose(sessionId)) : null,
    idpAccessExpiresAt: typeof tokens.expires_in === "number" ? ctx.clock.now() + tokens.expires_in * 1000 : null,
  };
}

/** Forgets a session's IdP tokens (logout, or a grant the IdP no longer honours). */
async function dropIdpTokens(ctx: Pick<Ctx, "db">, sessionId: string): Promise<void> {
  await ctx.db
    .update(wsSessions)
    .set({ idpAccessTokenSealed: null, idpRefreshTokenSealed: null, idpAccessExpiresAt: null })
    .where(eq(wsSessions.id, sessionId))
    .run();
}

// One refresh per session at a time: a refresh token rotates, and presenting the old one again
// makes the IdP revoke the whole grant (RFC 9700 section 4.14).

/**
 * A usable access token for the IdP's APIs on behalf of a workspace session: the stored one while
 * it is valid, else a fresh one from the refresh token (rotated tokens stored). `renew` forces a
 * refresh (the IdP refused the stored token). Null when the session has no usable token.
 * Network and IdP errors other than a dead grant are thrown.
 */
export async function idpAccessToken(ctx: Ctx, sessionId: string, { renew = false } = {}): Promise<string | null> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .select()
    .from(wsSessions)
    .where(and(eq(wsSessions.id, sessionId), isNull(wsSessions.revokedAt), gt(wsSessions.expiresAt, now)))
    .get();
  if (!row?.idpAccessTokenSealed) return null;
  const expired = row.idpAccessExpiresAt !== null && now >= row.idpAccessExpiresAt - EARLY_MS;
  if (!expired && !renew) return ctx.secrets.open(row.idpAccessTokenSealed, accessPurpose(sessionId));
  if (!row.idpRefreshTokenSealed) return null;
  const renewing = ctx.workspace.idp.renewing;
  let running = renewing.get(sessionId);
  if (!running) {
    running = renewTokens(ctx, row).finally(() => renewing.delete(sessionId));
    renewing.set(sessionId, running);
  }
  return running;
}

async function renewTokens(ctx: Ctx, row: WsSessionRow): Promise<string | null> {
  const refreshToken = ctx.secrets.open(row.idpRefreshTokenSealed as string, refreshPurpose(row.id));
  const { config } = await idpConfiguration(ctx);
  let tokens: client.TokenEndpointResponse;
  try {
    tokens = await client.refreshTokenGrant(config, refreshToken);
  } catch (e) {
    // RFC 6749 section 5.2: the grant is gone (revoked, expired); only a new sign-in brings one back.
    if (e instanceof client.ResponseBodyError && e.error === "invalid_grant") {
      await dropIdpTokens(ctx, row.id);
      return null;
    }
    throw e;
  }
  // RFC 6749 section 6: without a new refresh token the old one stays valid.
  await ctx.db
    .update(wsSessions)
    .set(sealIdpTokens(ctx, row.id, tokens, refreshToken))
    .where(eq(wsSessions.id, row.id))
    .run();
  return tokens.access_token;
}
