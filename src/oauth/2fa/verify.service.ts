import { and, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { sha256Hex } from "../../shared/crypto.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { invalidGrant, invalidRequest } from "../protocol/oauth.errors.ts";
import { verifyPkceS256 } from "../protocol/pkce.ts";
import { twoFactorChallenges } from "./2fa.table.ts";

/**
 * `POST /api/oauth/2fa/verify` (spec 1 section 3.3): the code of an approved challenge, redeemed
 * once by the client it was issued to, with the pinned redirect_uri and the PKCE verifier.
 */
export async function verifyConfirmation(ctx: Pick<AppContext, "db" | "clock">, client: ClientRow, form: URLSearchParams) {
  const code = form.get("code");
  const redirectUri = form.get("redirect_uri");
  const verifier = form.get("code_verifier");
  if (!code) throw invalidRequest('missing required parameter "code"');
  if (!redirectUri) throw invalidRequest('missing required parameter "redirect_uri"');
  const now = ctx.clock.now();
  const codeHash = sha256Hex(code);
  const row = await ctx.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.codeHash, codeHash)).get();
  if (row?.status !== "approved" || (row.codeExpiresAt ?? 0) <= now) throw invalidGrant("the 2FA code is unknown, used or expired");
  if (row.clientId !== client.clientId) throw invalidGrant("the 2FA code was issued to another client");
  if (row.redirectUri !== redirectUri) throw invalidGrant("redirect_uri differs from the challenge's");
  if (row.codeChallenge !== null ? !verifier || !verifyPkceS256(verifier, row.codeChallenge) : verifier !== null)
    throw invalidGrant(row.codeChallenge !== null ? "PKCE verification failed" : "code_verifier sent for a challenge without code_challenge");
  const redeemed = await ctx.db
    .update(twoFactorChallenges)
    .set({ status: "redeemed" })
    .where(and(eq(twoFactorChallenges.codeHash, codeHash), eq(twoFactorChallenges.status, "approved"), gt(twoFactorChallenges.codeExpiresAt, now)))
    .run();
  if (changedRows(redeemed) !== 1) throw invalidGrant("the 2FA code was redeemed meanwhile");
  return {
    user_id: row.userId,
    client_id: row.clientId,
    verified_at: Math.floor((row.verifiedAt ?? now) / 1000),
    action: row.action,
    nonce: row.nonce,
    method: row.method,
  };
}
