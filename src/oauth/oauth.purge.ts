import { and, isNull, lt, ne } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { deleteBefore, deleteDue } from "../db/batch-delete.ts";
import { assertionJtis } from "./clients/client-assertion.table.ts";
import { dpopProofJtis } from "./dpop/dpop-proofs.table.ts";
import { pushedRequests } from "./par/pushed-requests.table.ts";
import { deviceAuthorizations } from "./device/device-authorizations.table.ts";
import { backchannelDeliveries } from "./logout/backchannel-deliveries.table.ts";
import { machineTokens } from "./tokens/machine-tokens.table.ts";
import { powStamps, sudoWindows, twoFactorChallenges } from "./2fa/2fa.table.ts";
import { accessTokens, authorizationCodes, oauthGrants, refreshTokens } from "./tokens/tokens.table.ts";
import { interactions } from "./endpoints/interactions.table.ts";
import { GRANT_OUTLIVES_ITS_WINDOW_MS } from "./tokens/lifetimes.ts";

/**
 * OAuth leftovers: one-use things past their life, tokens past their expiry, and grants nothing
 * can use any more. Each is found through an index on what it is filtered by (migration 0035).
 */
export function registerOAuthPurges(ctx: Pick<AppContext, "db" | "purges">): void {
  const { db, purges } = ctx;
  purges.register("authorization requests", deleteBefore(db, interactions, interactions.expiresAt));
  // A redeemed code is kept a day: presented again, it still revokes the grant it made.
  purges.register("authorization codes", deleteBefore(db, authorizationCodes, authorizationCodes.expiresAt, 86_400_000));
  purges.register("client assertion ids", deleteBefore(db, assertionJtis, assertionJtis.expiresAt));
  purges.register("pushed authorization requests", deleteBefore(db, pushedRequests, pushedRequests.expiresAt));
  purges.register("device authorizations", deleteBefore(db, deviceAuthorizations, deviceAuthorizations.expiresAt));
  // The delivery log keeps settled deliveries a while for the app's owner to read.
  purges.register(
    "back-channel deliveries",
    deleteDue(
      db,
      backchannelDeliveries,
      (cutoff) => and(lt(backchannelDeliveries.createdAt, cutoff), ne(backchannelDeliveries.status, "pending")),
      KEEP_ENDED_MS,
    ),
  );
  purges.register("DPoP proof ids", deleteBefore(db, dpopProofJtis, dpopProofJtis.expiresAt));
  purges.register("machine access tokens", deleteBefore(db, machineTokens, machineTokens.expiresAt));
  // Tokens go at their expiry. A grant goes once nothing can use it (below), which is after its
  // tokens' expiry, so no token has to be looked up by grant: a token of a grant deleted otherwise
  // (a deleted account's refresh tokens) is dead at once, as every use looks its grant up, and its
  // row goes at its expiry.
  purges.register("access tokens", deleteBefore(db, accessTokens, accessTokens.expiresAt));
  purges.register("refresh tokens", deleteBefore(db, refreshTokens, refreshTokens.expiresAt));
  // A grant whose refresh window (or, without one, its sign-in) ended GRANT_OUTLIVES_ITS_WINDOW_MS
  // ago has no token left, nor has any grant exchanged from it; back-channel logout reads
  // session_clients, not grants. Consents are other rows, and stay.
  purges.register("ended grants", deleteBefore(db, oauthGrants, oauthGrants.refreshExpiresAt, GRANT_OUTLIVES_ITS_WINDOW_MS));
  purges.register(
    "ended grants without refresh",
    deleteDue(db, oauthGrants, (cutoff) => and(isNull(oauthGrants.refreshExpiresAt), lt(oauthGrants.createdAt, cutoff)), GRANT_OUTLIVES_ITS_WINDOW_MS),
  );
  purges.register("revoked grants", deleteBefore(db, oauthGrants, oauthGrants.revokedAt, KEEP_ENDED_MS));
  // Answered and expired 2FA challenges stay a while on their app's page.
  purges.register("2FA challenges", deleteBefore(db, twoFactorChallenges, twoFactorChallenges.expiresAt, KEEP_ENDED_MS));
  purges.register("sudo windows", deleteBefore(db, sudoWindows, sudoWindows.expiresAt));
  purges.register("proof-of-work stamps", deleteBefore(db, powStamps, powStamps.expiresAt));
}
