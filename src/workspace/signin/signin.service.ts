import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import * as client from "openid-client";
import type { AppContext } from "../../context.ts";
import { changedRows } from "../../db/changes.ts";
import { AppError } from "../../shared/errors.ts";
import { randomToken } from "../../shared/crypto.ts";
import { getAppConfig } from "../../settings/init/init.service.ts";
import { idpConfiguration } from "./idp-client.ts";
import { type IdpTokenResponse, sealIdpTokens } from "./idp-tokens.ts";
import { type WsSessionRow, type WsTeam, wsLoginStates, wsSessions } from "./signin.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess">;

export const WS_COOKIE = "cairn_ws";
export const WS_SESSION_TTL_MS = 14 * 86_400_000;
const LOGIN_TTL_MS = 10 * 60_000;
// offline_access: a refresh token keeps the team API reachable after the access token expires.
// The IdP drops it silently for a client not allowed it; the workspace then lives without one.
const SCOPES = "openid profile email teams:read offline_access";

/** Only a path on this site may be a return address (no open redirect). */
export function safeReturnTo(raw: string | undefined): string {
  return raw && raw.startsWith("/") && !raw.startsWith("//") && !raw.startsWith("/\\") ? raw : "/w";
}

/** Starts the authorization code flow at the identity provider (PKCE when `use_pkce`). */
export async function startLogin(ctx: Ctx, returnTo: string | undefined): Promise<string> {
  const { config, usePkce, redirectUri } = await idpConfiguration(ctx);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = usePkce ? client.randomPKCECodeVerifier() : null;
  ctx.db.insert(wsLoginStates).values({ state, nonce, codeVerifier: verifier, returnTo: safeReturnTo(returnTo), expiresAt: ctx.clock.now() + LOGIN_TTL_MS }).run();
  const params: Record<string, string> = { redirect_uri: redirectUri, scope: SCOPES, state, nonce };
  if (verifier) Object.assign(params, { code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
  return client.buildAuthorizationUrl(config, params).href;
}

const refused = (status: number, error: string, detail: string) => new AppError(status, error, detail);

/**
 * The callback: the state is used once (a conditional update), the code redeemed and the ID
 * token verified by openid-client; the `allowed_team_id` rule is applied; a workspace session made.
 */
export async function finishLogin(ctx: Ctx, callbackUrl: URL): Promise<{ session: WsSessionRow; returnTo: string }> {
  const state = callbackUrl.searchParams.get("state") ?? "";
  const now = ctx.clock.now();
  const taken = ctx.db
    .update(wsLoginStates)
    .set({ consumedAt: now })
    .where(and(eq(wsLoginStates.state, state), isNull(wsLoginStates.consumedAt), gt(wsLoginStates.expiresAt, now)))
    .run();
  if (changedRows(taken) !== 1) throw refused(400, "Invalid request", "unknown, used or expired sign-in state");
  const login = ctx.db.select().from(wsLoginStates).where(eq(wsLoginStates.state, state)).get() as typeof wsLoginStates.$inferSelect;
  const { config, redirectUri } = await idpConfiguration(ctx);
  let claims: client.IDToken;
  let tokens: IdpTokenResponse;
  try {
    const checks = { expectedState: state, expectedNonce: login.nonce, ...(login.codeVerifier ? { pkceCodeVerifier: login.codeVerifier } : {}) };
    // The redirect_uri sent must be the registered one, exactly as the authorization request had it.
    const response = await client.authorizationCodeGrant(config, callbackUrl, checks, { redirect_uri: redirectUri });
    claims = response.claims() as client.IDToken;
    tokens = response;
  } catch (e) {
    throw refused(400, "Invalid request", `sign-in at the identity provider failed: ${(e as Error).message}`);
  }
  const teams = Array.isArray(claims.teams) ? (claims.teams as WsTeam[]) : [];
  const allowed = getAppConfig(ctx).allowed_team_id;
  if (allowed && !teams.some((t) => t.id === allowed) && claims[`in_team_${allowed}`] !== true) throw refused(403, "Forbidden", "not a member of the allowed team");
  const id = randomToken(24);
  const session: WsSessionRow = {
    id,
    userId: claims.sub,
    username: String(claims.preferred_username ?? ""),
    name: String(claims.name ?? ""),
    email: String(claims.email ?? ""),
    picture: String(claims.picture ?? ""),
    teams,
    // Kept for the IdP's team API (members of a team who never used the workspace).
    ...sealIdpTokens(ctx, id, tokens),
    createdAt: now,
    expiresAt: now + WS_SESSION_TTL_MS,
    revokedAt: null,
  };
  ctx.db.insert(wsSessions).values(session).run();
  return { session, returnTo: login.returnTo };
}

// Every workspace request and every realtime push looks the session up: prepared once.
const liveSessionQuery = (db: Db) =>
  db
    .select()
    .from(wsSessions)
    .where(and(eq(wsSessions.id, sql.placeholder("id")), isNull(wsSessions.revokedAt), gt(wsSessions.expiresAt, sql.placeholder("now"))))
    .prepare();

export function findWsSession(ctx: Pick<Ctx, "db" | "clock">, id: string): WsSessionRow | null {
  return prepared(ctx.db, liveSessionQuery).get({ id, now: ctx.clock.now() }) ?? null;
}

export function endWsSession(ctx: Pick<Ctx, "db" | "clock">, id: string): void {
  // The IdP's tokens go with the session: nothing left at rest to use them.
  const noTokens = { idpAccessTokenSealed: null, idpRefreshTokenSealed: null, idpAccessExpiresAt: null };
  ctx.db.update(wsSessions).set({ revokedAt: ctx.clock.now(), ...noTokens }).where(eq(wsSessions.id, id)).run();
}

/** `GET /api/workspace/me`: the signed-in user and their teams. */
export const meView = (s: WsSessionRow) => ({
  user: { id: s.userId, username: s.username, name: s.name, email: s.email, picture: s.picture },
  teams: s.teams,
});
