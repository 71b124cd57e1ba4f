import { and, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { SessionPrincipal } from "../../access/principal.ts";
import { notFound } from "../../shared/errors.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { grantableScopes } from "../../contract/scopes.ts";
import { assertKeptSize, assertStartRequestSize } from "../protocol/kept-size.ts";
import { invalidRequest, invalidScope, noFreeUserCode, unauthorizedClient } from "../protocol/oauth.errors.ts";
import { requestedResources } from "../protocol/resource.ts";
import { CHALLENGE } from "../protocol/pkce.ts";
import { parseScope } from "../protocol/scope.ts";
import { displayUserCode, newUserCode, normalizeUserCode } from "../protocol/user-code.ts";
import { deviceAuthorizations } from "./device-authorizations.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;

/** RFC 8628 section 3.4 grant type, and spec 8's sample lifetime and interval (ARCHITECTURE: 600 s / 5 s). */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const DEVICE_CODE_TTL_S = 600;
export const DEVICE_INTERVAL_S = 5;
/** Where people enter the code (the SPA's `/device` page). */
export const DEVICE_PAGE = "/device";

/** Fresh user codes tried before giving up: with at most a few thousand stored among 20^8, one collides about once in millions. */
const USER_CODE_TRIES = 5;

/** Spec 1 section 2.3 rule 10: a device flow never grants single-team or site scopes. */
const deviceMayGrant = (scope: string) => !scope.startsWith("team:") && !scope.startsWith("site:");

/**
 * RFC 8628 section 3.1-3.2: a device authorization request of an authenticated client (a public
 * one sends only its client_id). PKCE is optional (S256 only).
 */
export async function startDeviceAuthorization(ctx: Ctx, client: ClientRow, form: URLSearchParams, userCodes: () => string = newUserCode) {
  assertStartRequestSize(form);
  if (!client.grantTypes.includes(DEVICE_CODE_GRANT)) throw unauthorizedClient(`the client may not use ${DEVICE_CODE_GRANT}`);
  const requested = parseScope(form.get("scope") ?? "");
  if (requested === null) throw invalidScope("scope contains a malformed token");
  if (requested.some((s) => !deviceMayGrant(s)))
    throw invalidScope("the device flow cannot grant team or site scopes", "the device flow cannot grant team or site scopes");
  const scopes = requested.filter((s) => client.scopes.includes(s));
  if (scopes.length === 0) throw invalidScope("none of the requested scopes is allowed for this client");
  const challenge = form.get("code_challenge");
  const method = form.get("code_challenge_method");
  if ((challenge !== null || method !== null) && (method !== "S256" || challenge === null || !CHALLENGE.test(challenge)))
    throw invalidRequest("code_challenge must be a base64url SHA-256 with code_challenge_method S256");

  const resources = requestedResources(form);
  assertKeptSize(JSON.stringify([scopes, resources, challenge]));

  const deviceCode = randomToken(32);
  const userCode = await insertWithFreshUserCode(
    ctx,
    {
      deviceCodeHash: sha256Hex(deviceCode),
      clientId: client.clientId,
      scopes,
      codeChallenge: challenge,
      resources,
      status: "pending",
      interval: DEVICE_INTERVAL_S,
      expiresAt: ctx.clock.now() + DEVICE_CODE_TTL_S * 1000,
    },
    userCodes,
  );
  const page = `${ctx.config.issuer}${DEVICE_PAGE}`;
  return {
    device_code: deviceCode,
    user_code: displayUserCode(userCode),
    verification_uri: page,
    verification_uri_complete: `${page}?user_code=${displayUserCode(userCode)}`,
    expires_in: DEVICE_CODE_TTL_S,
    interval: DEVICE_INTERVAL_S,
  };
}

/**
 * Inserts the request under the first of `userCodes` no stored request holds (the column is
 * unique, answered and expired rows included until purged): a collision takes another code
 * rather than failing the request. Answers the code used.
 */
async function insertWithFreshUserCode(ctx: Ctx, values: Omit<typeof deviceAuthorizations.$inferInsert, "userCode">, userCodes: () => string): Promise<string> {
  for (let i = 0; i < USER_CODE_TRIES; i++) {
    const userCode = userCodes();
    const inserted = await ctx.db
      .insert(deviceAuthorizations)
      .values({ ...values, userCode })
      .onConflictDoNothing({ target: deviceAuthorizations.userCode })
      .returning({ userCode: deviceAuthorizations.userCode })
      .all();
    if (inserted.length === 1) return userCode;
  }
  throw noFreeUserCode(USER_CODE_TRIES);
}

/** The live pending request a typed user code names, or 404 `Not found` (unknown, answered or expired alike). */
async function pendingRequest(ctx: Ctx, typed: string) {
  const userCode = normalizeUserCode(typed);
  const row = userCode
    ? await ctx.db
        .select()
        .from(deviceAuthorizations)
        .where(
          and(eq(deviceAuthorizations.userCode, userCode), eq(deviceAuthorizations.status, "pending"), gt(deviceAuthorizations.expiresAt, ctx.clock.now())),
        )
        .get()
    : undefined;
  if (!row) throw notFound("no pending device request has this code");
  return row;
}

/**
 * ARCHITECTURE section 4 `GET /api/oauth/device/lookup`: which app asks, for what: the scopes
 * this person may grant, which approval keeps.
 */
export async function lookupDeviceRequest(ctx: Ctx & Pick<AppContext, "oauth">, principal: SessionPrincipal, typed: string) {
  const row = await pendingRequest(ctx, typed);
  const client = await ctx.oauth.clients.find(row.clientId);
  if (!client) throw notFound("the client is gone");
  return {
    client: { client_id: client.clientId, name: client.name, is_verified: client.isVerified },
    scopes: grantableScopes(row.scopes, principal.user.role),
    user_code: displayUserCode(row.userCode),
  };
}

/**
 * ARCHITECTURE section 4 `POST /api/oauth/device/decision`: the signed-in user approves or denies
 * (spec 3.1). A conditional update on `pending` decides, so a request is answered once. As in the
 * code flow, a person who is not an admin cannot grant admin scopes: approval drops them.
 */
export async function decideDeviceRequest(ctx: Ctx, principal: SessionPrincipal, typed: string, decision: "approve" | "deny"): Promise<{ ok: true }> {
  const row = await pendingRequest(ctx, typed);
  const { session } = principal;
  const answered = await ctx.db
    .update(deviceAuthorizations)
    .set(
      decision === "approve"
        ? {
            status: "approved",
            scopes: grantableScopes(row.scopes, principal.user.role),
            userId: principal.user.id,
            sid: session.id,
            authTime: session.authTime,
            amr: session.amr,
            acr: session.acr,
          }
        : { status: "denied", userId: principal.user.id },
    )
    .where(and(eq(deviceAuthorizations.deviceCodeHash, row.deviceCodeHash), eq(deviceAuthorizations.status, "pending")))
    .returning({ hash: deviceAuthorizations.deviceCodeHash })
    .all();
  if (answered.length !== 1) throw notFound("the request was answered meanwhile");
  return { ok: true };
}
