import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { withTx } from "../../db/tx.ts";
import { sha256Hex } from "../../shared/crypto.ts";
import { deviceAuthorizations } from "../device/device-authorizations.table.ts";
import { DEVICE_CODE_GRANT } from "../device/device.service.ts";
import { accessDenied, authorizationPending, expiredToken, invalidGrant, invalidRequest, slowDown } from "../protocol/oauth.errors.ts";
import { verifyPkceS256 } from "../protocol/pkce.ts";
import { REFRESH_TOKEN_TTL_MS } from "../tokens/lifetimes.ts";
import { createGrant } from "../tokens/tokens.service.ts";
import { type Grant, type GrantContext, missingParam, type TokenRequest } from "./grant.ts";
import { storeTokens, tokenResources, withIdToken } from "./issue-tokens.ts";

/** RFC 8628 section 3.5: how much the interval grows on each slow_down. */
const SLOW_DOWN_STEP_S = 5;

/**
 * RFC 8628 section 3.4-3.5, every row of spec 1 state table 3.1: pending (authorization_pending,
 * or slow_down when polled faster than the interval, which then grows by 5 s), denied
 * (access_denied), expired (expired_token), approved (tokens, once: a conditional update consumes
 * the request, so of concurrent redemptions one wins).
 */
async function handle(ctx: GrantContext, request: TokenRequest) {
  const { client, params, now } = request;
  const code = params.get("device_code");
  if (!code) throw invalidRequest(missingParam("device_code"));
  const hash = sha256Hex(code);
  const row = await ctx.db.select().from(deviceAuthorizations).where(eq(deviceAuthorizations.deviceCodeHash, hash)).get();
  if (!row || row.clientId !== client.clientId) throw invalidGrant("the device code is not valid for this client");
  if (row.consumedAt !== null) throw invalidGrant("the device code was already redeemed");
  if (row.expiresAt <= now) throw expiredToken("the device code has expired");
  if (row.status === "denied") throw accessDenied("the user denied the request");
  if (row.status === "pending") throw await poll(ctx, hash, row.interval, now);

  const verifier = params.get("code_verifier");
  if (row.codeChallenge !== null && (!verifier || !verifyPkceS256(verifier, row.codeChallenge)))
    throw invalidGrant("code_verifier does not match the code_challenge");
  const resources = tokenResources(params, row.resources);
  const user = row.userId ? await ctx.identity.users.findActive(row.userId) : null;
  if (!user) throw invalidGrant("the user is no longer active");
  const offline = row.scopes.includes("offline_access") && client.grantTypes.includes("refresh_token");
  const issued = await withTx(ctx.db, async () => {
    const taken = await ctx.db
      .update(deviceAuthorizations)
      .set({ consumedAt: now })
      .where(and(eq(deviceAuthorizations.deviceCodeHash, hash), isNull(deviceAuthorizations.consumedAt)))
      .returning({ hash: deviceAuthorizations.deviceCodeHash })
      .all();
    if (taken.length !== 1) return null;
    const grant = await createGrant(ctx, {
      clientId: client.clientId,
      userId: user.id,
      scopes: row.scopes,
      sid: row.sid,
      authTime: row.authTime ?? Math.floor(now / 1000),
      amr: row.amr ?? [],
      acr: row.acr ?? "pwd",
      refreshExpiresAt: offline ? now + REFRESH_TOKEN_TTL_MS : null,
      dpopJkt: request.senderConstraint?.jkt ?? null,
      resources: row.resources,
    });
    return { grant, response: await storeTokens(ctx, grant, row.scopes, request, resources) };
  });
  if (!issued) throw invalidGrant("the device code was already redeemed");
  return withIdToken(ctx, issued.response, client, user, issued.grant, row.scopes, null);
}

/** A poll of a pending request: in time, authorization_pending; too soon, slow_down with the interval raised. */
async function poll(ctx: GrantContext, hash: string, interval: number, now: number) {
  const inTime = await ctx.db
    .update(deviceAuthorizations)
    .set({ lastPolledAt: now })
    .where(
      and(
        eq(deviceAuthorizations.deviceCodeHash, hash),
        or(isNull(deviceAuthorizations.lastPolledAt), lte(deviceAuthorizations.lastPolledAt, now - interval * 1000)),
      ),
    )
    .returning({ hash: deviceAuthorizations.deviceCodeHash })
    .all();
  if (inTime.length === 1) return authorizationPending("the user has not answered yet");
  const slowed = await ctx.db
    .update(deviceAuthorizations)
    .set({ lastPolledAt: now, interval: sql`${deviceAuthorizations.interval} + ${SLOW_DOWN_STEP_S}` })
    .where(eq(deviceAuthorizations.deviceCodeHash, hash))
    .returning({ interval: deviceAuthorizations.interval })
    .get();
  return slowDown(slowed?.interval ?? interval + SLOW_DOWN_STEP_S);
}

export const deviceCode: Grant = { grantType: DEVICE_CODE_GRANT, byDefault: false, params: ["device_code", "code_verifier", "resource"], handle };
