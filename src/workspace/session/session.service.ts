import { and, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import * as client from "openid-client";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { forbidden, invalidRequest } from "../../shared/errors.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { getAppConfig } from "../../settings/init/init.service.ts";
import { idpConfiguration } from "./idp-client.ts";
import { safeReturnTo } from "../../shared/return-to.ts";
import { type IdpTokenResponse, sealIdpTokens } from "./idp-tokens.ts";
import { sealIdTokenHint } from "./idp-logout.ts";
import { type WsSessionRow, type WsTeam, wsLoginStates, wsSessions } from "../storage/session.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "workspace">;

export const WS_SESSION_TTL_MS = 14 * 86_400_000;
const LOGIN_TTL_MS = 10 * 60_000;
// offline_access: a refresh token keeps the team API reachable after the access token expires.
// The IdP drops it silently for a client not allowed it; the workspace then lives without one.
const SCOPES = "openid profile email teams:read offline_access";

/** Starts the authorization code flow at the identity provider (PKCE when `use_pkce`). */
export async function startLogin(ctx: Ctx, returnTo: string | undefined): Promise<string> {
  const { config, usePkce, redirectUri } = await idpConfiguration(ctx);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = usePkce ? client.randomPKCECodeVerifier() : null;
  await ctx.db
    .insert(wsLoginStates)
    .values({ state, nonce, codeVerifier: verifier, returnTo: safeReturnTo(returnTo, ctx.config.issuer), expiresAt: ctx.clock.now() + LOGIN_TTL_MS })
    .run();
  const params: Record<string, string> = { redirect_uri: redirectUri, scope: SCOPES, state, nonce };
  if (verifier) Object.assign(params, { code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
  return client.buildAuthorizationUrl(config, params).href;
}

/**
 * The callback: the state is used once (a conditional update), the code redeemed and the ID
 * token verified by openid-client; the `allowed_team_id` rule is applied; a workspace session made.
 */
export async function finishLogin(ctx: Ctx, callbackUrl: URL): Promise<{ session: WsSessionRow; cookie: string; returnTo: string }> {
  const state = callbackUrl.searchParams.get("state") ?? "";
  const now = ctx.clock.now();
  const taken = await ctx.db
    .update(wsLoginStates)
    .set({ consumedAt: now })
    .where(and(eq(wsLoginStates.state, state), isNull(wsLoginStates.consumedAt), gt(wsLoginStates.expiresAt, now)))
    .run();
  if (changedRows(taken) !== 1) throw invalidRequest("unknown, used or expired sign-in state");
  const login = (await ctx.db.select().from(wsLoginStates).where(eq(wsLoginStates.state, state)).get()) as typeof wsLoginStates.$inferSelect;
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
    throw invalidRequest(`sign-in at the identity provider failed: ${(e as Error).message}`);
  }
  const teams = Array.isArray(claims.teams) ? (claims.teams as WsTeam[]) : [];
  const allowed = (await getAppConfig(ctx)).allowed_team_id;
  if (allowed && !teams.some((t) => t.id === allowed) && claims[`in_team_${allowed}`] !== true) throw forbidden("not a member of the allowed team");
  const cookie = randomToken(32);
  const id = wsSessionRowId(cookie);
  const session: WsSessionRow = {
    id,
    userId: claims.sub,
    username: String(claims.preferred_username ?? ""),
    name: String(claims.name ?? ""),
    email: String(claims.email ?? ""),
    emailVerified: claims.email_verified === true,
    picture: String(claims.picture ?? ""),
    teams,
    // Kept for the IdP's team API (members of a team who never used the workspace).
    ...sealIdpTokens(ctx, id, tokens),
    idpIdTokenSealed: sealIdTokenHint(ctx, id, tokens.id_token),
    idpSid: typeof claims.sid === "string" ? claims.sid : null,
    validatedAt: now,
    createdAt: now,
    expiresAt: now + WS_SESSION_TTL_MS,
    revokedAt: null,
  };
  await ctx.db.insert(wsSessions).values(session).run();
  return { session, cookie, returnTo: login.returnTo };
}

/** The row of the session a `cairn_ws` cookie holds: keyed by its hash, never by the value itself. */
export const wsSessionRowId = (cookie: string) => sha256Hex(cookie);

/** Every workspace request and every realtime push looks the session up: prepared once per app. */
export function createWsSessionsRepo({ db }: { db: Db }) {
  const live = onFirstUse(() =>
    db
      .select()
      .from(wsSessions)
      .where(and(eq(wsSessions.id, sql.placeholder("id")), isNull(wsSessions.revokedAt), gt(wsSessions.expiresAt, sql.placeholder("now"))))
      .prepare(),
  );
  return { findLive: async (id: string, now: number): Promise<WsSessionRow | null> => (await live().get({ id, now })) ?? null };
}

export type WsSessionsRepo = ReturnType<typeof createWsSessionsRepo>;

/** The live session a `cairn_ws` cookie holds, or null. */
export function findWsSession(ctx: Pick<AppContext, "clock" | "workspace">, cookie: string): Promise<WsSessionRow | null> {
  return findWsSessionById(ctx, wsSessionRowId(cookie));
}

/** The live session of a row id (the cookie's hash), or null. */
export function findWsSessionById(ctx: Pick<AppContext, "clock" | "workspace">, id: string): Promise<WsSessionRow | null> {
  return ctx.workspace.sessions.findLive(id, ctx.clock.now());
}

/**
 * Ends the session a `cairn_ws` cookie holds (workspace sign-out). Answers what the IdP's logout
 * needs of it (its row id and sealed ID token), or null when it was not live.
 */
export async function endWsSession(
  ctx: Pick<Ctx, "db" | "clock" | "workspace">,
  cookie: string,
): Promise<Pick<WsSessionRow, "id" | "idpIdTokenSealed"> | null> {
  const where = and(eq(wsSessions.id, wsSessionRowId(cookie)), gt(wsSessions.expiresAt, ctx.clock.now()));
  const live = await ctx.db.select({ id: wsSessions.id, idpIdTokenSealed: wsSessions.idpIdTokenSealed }).from(wsSessions).where(where).get();
  return (await endWsSessions(ctx, where)) === 1 ? (live ?? null) : null;
}

/**
 * Ends the live sessions `where` names; the IdP's tokens go with them: nothing left at rest to use.
 * Their realtime streams close once this commits.
 */
export async function endWsSessions(ctx: Pick<Ctx, "db" | "clock" | "workspace">, where: SQL | undefined): Promise<number> {
  const noTokens = { idpAccessTokenSealed: null, idpRefreshTokenSealed: null, idpAccessExpiresAt: null, idpIdTokenSealed: null };
  const ended = await ctx.db
    .update(wsSessions)
    .set({ revokedAt: ctx.clock.now(), ...noTokens })
    .where(and(where, isNull(wsSessions.revokedAt)))
    .returning({ id: wsSessions.id })
    .all();
  ctx.workspace.realtime.rightsChanged({ sessions: ended.map((row) => row.id) });
  return ended.length;
}

/** The sessions made from these IdP sessions, or of this IdP user: for ending them together. */
export const wsSessionsOf = (of: { idpSids: string[] } | { userId: string }) =>
  "userId" in of ? eq(wsSessions.userId, of.userId) : inArray(wsSessions.idpSid, of.idpSids);

/** `GET /api/workspace/me`: the signed-in user and their teams. */
export const meView = (s: WsSessionRow) => ({
  user: { id: s.userId, username: s.username, name: s.name, email: s.email, picture: s.picture },
  teams: s.teams,
});
