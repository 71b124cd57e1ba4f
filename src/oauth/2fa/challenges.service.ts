import { and, desc, eq, gt, lte } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { hasPasskeys } from "../../identity/passkeys/passkeys.service.ts";
import { getSiteConfig } from "../../identity/site-config/site-config.ts";
import { backupCodesLeft, totpEnabled } from "../../identity/totp/totp.service.ts";
import { missing } from "../../identity/users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { invalidRequest } from "../protocol/oauth.errors.ts";
import { CHALLENGE } from "../protocol/pkce.ts";
import { matchRedirectUri } from "../protocol/redirect-uri.ts";
import { captchaRequired, powPuzzle } from "./captcha.ts";
import { twoFactorChallenges } from "./2fa.table.ts";
import { activeSudoUntil } from "./sudo.service.ts";
import { challengeExpired, challengeGone } from "./2fa.errors.ts";
import type { AppChallenge } from "../../contract/api/two-factor.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "oauth">;

/** The confirmation page (a route of the SPA). */
export const TWO_FA_PAGE = "/2fa";
/** A person has this long to open the page and confirm. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/** Spec 1 section 8: the code lives 5 minutes. */
export const CODE_TTL_MS = 5 * 60_000;
/** Spec 1 section 8. */
export const MAX_ACTION = 200;
export const MAX_NONCE = 256;

export type ChallengeRow = typeof twoFactorChallenges.$inferSelect;
export type ChallengeRequest = {
  redirect_uri?: unknown;
  action?: unknown;
  nonce?: unknown;
  code_challenge?: unknown;
  code_challenge_method?: unknown;
  require_captcha?: unknown;
};

const optionalString = (value: unknown, name: string, max: number): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw invalidRequest(`${name} must be a string`);
  if ([...value].length > max) throw invalidRequest(`${name} is longer than ${max} characters`);
  // A lone surrogate cannot come back verbatim (JSON would replace it): the app's comparison would fail.
  if (!value.isWellFormed()) throw invalidRequest(`${name} is not well-formed Unicode`);
  return value;
};

/**
 * What the person reads must be what the app meant: control characters and bidirectional
 * overrides (which can make "Delete acme/site" display as other text) are refused.
 */
const SPOOFING = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** The app's pinned redirect_uri with `params` (and the app's `state`) added to its query. */
export function appRedirect(row: Pick<ChallengeRow, "redirectUri">, state: string | undefined, params: Record<string, string>): string {
  const url = new URL(row.redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  if (state !== undefined && state !== "") url.searchParams.set("state", state);
  return url.href;
}

/** The binding of a challenge's proof of work: part of the id's hash, never the id itself. */
export const powBinding = (row: Pick<ChallengeRow, "idHash">) => row.idHash.slice(0, 32);

/**
 * `POST /api/oauth/2fa/challenges` for an authenticated client (spec 1, the challenge request
 * table): the redirect_uri must be registered; action and nonce are kept verbatim and pinned
 * server-side; PKCE is required for public clients.
 */
export async function createChallenge(ctx: Ctx, client: ClientRow, body: ChallengeRequest) {
  const redirectUri = optionalString(body.redirect_uri, "redirect_uri", 2048);
  if (!redirectUri) throw invalidRequest('missing required parameter "redirect_uri"');
  if (!matchRedirectUri(client.redirectUris, redirectUri)) throw invalidRequest("redirect_uri is not registered for this client");
  const action = optionalString(body.action, "action", MAX_ACTION) ?? "";
  if (SPOOFING.test(action)) throw invalidRequest("action must not contain control characters or bidirectional formatting characters");
  const nonce = optionalString(body.nonce, "nonce", MAX_NONCE);
  const challenge = optionalString(body.code_challenge, "code_challenge", 128);
  const method = optionalString(body.code_challenge_method, "code_challenge_method", 16);
  if (challenge === null && method !== null) throw invalidRequest("code_challenge_method without code_challenge");
  if (challenge !== null && (method ?? "S256") !== "S256") throw invalidRequest("code_challenge_method must be S256");
  if (challenge !== null && !CHALLENGE.test(challenge)) throw invalidRequest("code_challenge must be a base64url SHA-256 (43 characters)");
  if (client.isPublic && challenge === null) throw invalidRequest("a public client must send code_challenge (PKCE, S256)");
  if (body.require_captcha !== undefined && typeof body.require_captcha !== "boolean") throw invalidRequest("require_captcha must be a boolean");

  const id = randomToken(32);
  const now = ctx.clock.now();
  const expiresAt = now + CHALLENGE_TTL_MS;
  await ctx.db
    .insert(twoFactorChallenges)
    .values({
      idHash: sha256Hex(id),
      clientId: client.clientId,
      redirectUri,
      action,
      nonce,
      codeChallenge: challenge,
      requireCaptcha: body.require_captcha === true,
      status: "created",
      createdAt: now,
      expiresAt,
    })
    .run();
  return {
    challenge_id: id,
    expires_at: Math.floor(expiresAt / 1000),
    url: `${ctx.config.issuer}${TWO_FA_PAGE}?challenge_id=${encodeURIComponent(id)}`,
  };
}

/** The open challenge an id names, or 404 (unknown, answered and expired alike). */
export async function openChallenge(ctx: Pick<Ctx, "db" | "clock">, challengeId: string): Promise<ChallengeRow> {
  const row = await ctx.db
    .select()
    .from(twoFactorChallenges)
    .where(
      and(
        eq(twoFactorChallenges.idHash, sha256Hex(challengeId)),
        eq(twoFactorChallenges.status, "created"),
        gt(twoFactorChallenges.expiresAt, ctx.clock.now()),
      ),
    )
    .get();
  if (!row) throw challengeGone();
  return row;
}

/**
 * Spec 1 section 3.3 "an error occurs": a challenge that expired unanswered is closed when its
 * page is opened, and the page is given the app's access_denied redirect (410) to send the person back.
 */
async function closeIfExpired(ctx: Ctx, challengeId: string, state: string | undefined): Promise<void> {
  const idHash = sha256Hex(challengeId);
  const closed = await ctx.db
    .update(twoFactorChallenges)
    .set({ status: "closed" })
    .where(and(eq(twoFactorChallenges.idHash, idHash), eq(twoFactorChallenges.status, "created"), lte(twoFactorChallenges.expiresAt, ctx.clock.now())))
    .returning({ redirectUri: twoFactorChallenges.redirectUri, clientId: twoFactorChallenges.clientId })
    .get();
  if (!closed) return;
  throw challengeExpired(appRedirect(closed, state, { error: "access_denied" }), (await ctx.oauth.clients.find(closed.clientId))?.name ?? null);
}

/** The second factors a user can confirm with, in the page's order. */
export async function confirmationMethods(ctx: Pick<Ctx, "db">, userId: string): Promise<("totp" | "passkey" | "backup")[]> {
  const methods: ("totp" | "passkey" | "backup")[] = [];
  const totp = await totpEnabled(ctx, userId);
  if (totp) methods.push("totp");
  if (await hasPasskeys(ctx, userId)) methods.push("passkey");
  if (totp && (await backupCodesLeft(ctx, userId)) > 0) methods.push("backup");
  return methods;
}

/** Spec 1 section 5 rule 7: a user without TOTP or a passkey cannot confirm anything. */
export const NO_SECOND_FACTOR = "Confirming an action needs a second factor: add an authenticator app or a passkey on your account page first.";

/**
 * `GET /api/oauth/2fa/info` (ARCHITECTURE section 4): what the page shows for a signed-in user.
 * The redirect_uri is never sent; the action is data, rendered as text.
 */
export async function describeChallenge(ctx: Ctx, challengeId: string, state: string | undefined, userId: string, sessionId: string) {
  await closeIfExpired(ctx, challengeId, state);
  const row = await openChallenge(ctx, challengeId);
  const client = await ctx.oauth.clients.find(row.clientId);
  if (!client) throw missing("The application");
  const methods = await confirmationMethods(ctx, userId);
  if (!methods.includes("totp") && !methods.includes("passkey")) throw denied(NO_SECOND_FACTOR);
  const config = await getSiteConfig(ctx);
  const sudoUntil = await activeSudoUntil(ctx, { userId, sessionId, clientId: row.clientId });
  const captcha = captchaRequired(config, row.requireCaptcha);
  return {
    client: { client_id: client.clientId, name: client.name, is_verified: client.isVerified },
    action: row.action,
    expires_at: Math.floor(row.expiresAt / 1000),
    methods,
    sudo_available: sudoUntil !== null,
    sudo_expires_at: sudoUntil === null ? null : Math.floor(sudoUntil / 1000),
    sudo_ttl_minutes: config.sudo_mode_ttl_minutes,
    captcha_required: captcha,
    captcha_provider: config.captcha_provider,
    captcha_site_key: config.captcha_site_key || null,
    ...(captcha && config.captcha_provider === "pow" ? { pow: powPuzzle(ctx, config, powBinding(row)) } : {}),
  };
}

/** The app page's list: its recent challenges, newest first, without who confirmed them. */
export async function recentChallenges(ctx: Pick<Ctx, "db" | "clock">, clientId: string, limit = 50): Promise<AppChallenge[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select()
    .from(twoFactorChallenges)
    .where(eq(twoFactorChallenges.clientId, clientId))
    .orderBy(desc(twoFactorChallenges.createdAt))
    .limit(limit)
    .all();
  return rows.map((c) => ({
    created_at: c.createdAt,
    action: c.action,
    // `checking` lasts a request; one left over (a crash mid-check) reads as its challenge does.
    status: (c.status === "created" || c.status === "checking") && c.expiresAt <= now ? "expired" : c.status === "checking" ? "created" : c.status,
    method: c.method,
    verified_at: c.verifiedAt,
    captcha: c.requireCaptcha,
  }));
}
