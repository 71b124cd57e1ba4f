import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { preparedOnFirstUse } from "../../db/prepared.ts";
import { withTx } from "../../db/tx.ts";
import { sha256Hex } from "../../shared/crypto.ts";
import { invalidGrant, invalidRequest } from "../protocol/oauth.errors.ts";
import { verifyPkceS256 } from "../protocol/pkce.ts";
import { REFRESH_TOKEN_TTL_MS } from "../tokens/lifetimes.ts";
import { createGrant, newGrantId, revokeGrant } from "../tokens/tokens.service.ts";
import { authorizationCodes } from "../tokens/tokens.table.ts";
import { type Grant, type GrantContext, missingParam, type TokenRequest } from "./grant.ts";
import { storeTokens, tokenResources, withIdToken } from "./issue-tokens.ts";

/** The code redemption's statements, prepared once per app. */
export function createCodeStatements(db: Db) {
  const p = sql.placeholder;
  return preparedOnFirstUse({
    find: () =>
      db
        .select()
        .from(authorizationCodes)
        .where(eq(authorizationCodes.codeHash, p("hash")))
        .prepare(),
    /**
     * Takes the code if nobody has, naming the grant its redemption is to create, and returns its
     * row: the one statement of a redemption that succeeds.
     */
    consume: () =>
      db
        .update(authorizationCodes)
        .set({ consumedAt: sql`${p("now")}`, grantId: sql`${p("grantId")}` })
        .where(and(eq(authorizationCodes.codeHash, p("hash")), isNull(authorizationCodes.consumedAt)))
        .returning()
        .prepare(),
  });
}

export type CodeStatements = ReturnType<typeof createCodeStatements>;

type CodeRow = typeof authorizationCodes.$inferSelect;

/**
 * What this request may redeem the taken code for, or throws why not: the checks of RFC 6749
 * section 4.1.3 and RFC 7636, the resources asked for, and the user, still active.
 */
async function checkRedemption(ctx: GrantContext, request: TokenRequest, row: CodeRow, redirectUri: string) {
  const { client, params, now } = request;
  const verifier = params.get("code_verifier");
  if (row.expiresAt <= now) throw invalidGrant("the code has expired");
  if (row.clientId !== client.clientId) throw invalidGrant("the code was issued to another client");
  if (row.redirectUri !== redirectUri) throw invalidGrant("redirect_uri differs from the authorization request");
  if (row.codeChallenge !== null) {
    if (!verifier) throw invalidGrant(missingParam("code_verifier"));
    if (!verifyPkceS256(verifier, row.codeChallenge)) throw invalidGrant("code_verifier does not match the code_challenge");
  } else if (verifier) throw invalidGrant("code_verifier given but the authorization request had no code_challenge");
  const resources = tokenResources(params, row.resources);
  const user = await ctx.identity.users.findActive(row.userId);
  if (!user) throw invalidGrant("the user is no longer active");
  return { resources, user };
}

/**
 * RFC 6749 section 4.1.3 with RFC 7636: the code is taken by a conditional update, which returns
 * its row, before anything else, so of concurrent redemptions one wins; a code presented again
 * revokes the grant its first redemption made (section 10.5). Taking the code, checking it and
 * making the grant are one transaction: no other request, in this process or another, can see
 * the code taken and its grant not yet made. A refused redemption still spends the code: its
 * refusal is returned out of the transaction, which commits, and thrown after it.
 */
async function handle(ctx: GrantContext, request: TokenRequest) {
  const { client, params, now } = request;
  const code = params.get("code");
  if (!code) throw invalidRequest(missingParam("code"));
  const redirectUri = params.get("redirect_uri");
  if (!redirectUri) throw invalidRequest(missingParam("redirect_uri"));
  const hash = sha256Hex(code);

  // The code names the grant its redemption makes, so a code presented again can revoke it; a
  // refused redemption names a grant never made, and presented again revokes nothing.
  const grantId = newGrantId();
  const outcome = await withTx(ctx.db, async () => {
    const row = await ctx.oauth.codes.consume.get({ hash, now, grantId });
    if (!row) {
      // Not taken now: unknown, or taken before (by an earlier request, or a concurrent one that won).
      const spent = await ctx.oauth.codes.find.get({ hash });
      if (!spent) throw invalidGrant("the code is not valid");
      if (spent.grantId) await revokeGrant(ctx, spent.grantId);
      return { refused: invalidGrant("the code was already used; the tokens issued for it are revoked") };
    }
    let checked: Awaited<ReturnType<typeof checkRedemption>>;
    try {
      checked = await checkRedemption(ctx, request, row, redirectUri);
    } catch (refusal) {
      return { refused: refusal };
    }
    const offline = row.scopes.includes("offline_access") && client.grantTypes.includes("refresh_token");
    const grant = await createGrant(
      ctx,
      {
        clientId: client.clientId,
        userId: checked.user.id,
        scopes: row.scopes,
        sid: row.sid,
        authTime: row.authTime,
        amr: row.amr,
        acr: row.acr,
        refreshExpiresAt: offline ? now + REFRESH_TOKEN_TTL_MS : null,
        // RFC 9449 section 5: tokens issued with a proof, refreshes included, stay bound to its key.
        dpopJkt: request.senderConstraint?.jkt ?? null,
        resources: row.resources,
      },
      grantId,
    );
    return { row, user: checked.user, grant, response: await storeTokens(ctx, grant, row.scopes, request, checked.resources) };
  });
  if ("refused" in outcome) throw outcome.refused;
  const { row, user, grant, response } = outcome;
  return withIdToken(ctx, response, client, user, grant, row.scopes, row.nonce);
}

export const authorizationCode: Grant = {
  grantType: "authorization_code",
  byDefault: true,
  params: ["code", "redirect_uri", "code_verifier", "resource"],
  handle,
};
