import { and, isNotNull, lt, ne, notInArray, or } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { KEEP_ENDED_MS } from "../context/purges.ts";
import { assertionJtis } from "./clients/client-assertion.table.ts";
import { dpopProofJtis } from "./dpop/dpop-proofs.table.ts";
import { pushedRequests } from "./par/pushed-requests.table.ts";
import { deviceAuthorizations } from "./device/device-authorizations.table.ts";
import { backchannelDeliveries } from "./logout/backchannel-deliveries.table.ts";
import { machineTokens } from "./tokens/machine-tokens.table.ts";
import { powStamps, sudoWindows, twoFactorChallenges } from "./2fa/2fa.table.ts";
import { accessTokens, authorizationCodes, oauthGrants, refreshTokens } from "./tokens/tokens.table.ts";
import { interactions } from "./endpoints/interactions.table.ts";

/** OAuth leftovers: one-use things past their life, and grants long ended. */
export function registerOAuthPurges(ctx: Pick<AppContext, "db" | "purges" | "oauth">): void {
  const { db } = ctx;
  ctx.purges.register("authorization requests", (now) => void db.delete(interactions).where(lt(interactions.expiresAt, now)).run());
  // A redeemed code is kept a day: presented again, it still revokes the grant it made.
  ctx.purges.register(
    "authorization codes",
    (now) =>
      void db
        .delete(authorizationCodes)
        .where(lt(authorizationCodes.expiresAt, now - 86_400_000))
        .run(),
  );
  ctx.purges.register("client assertion ids", (now) => void db.delete(assertionJtis).where(lt(assertionJtis.expiresAt, now)).run());
  ctx.purges.register("pushed authorization requests", (now) => void db.delete(pushedRequests).where(lt(pushedRequests.expiresAt, now)).run());
  ctx.purges.register("device authorizations", (now) => void db.delete(deviceAuthorizations).where(lt(deviceAuthorizations.expiresAt, now)).run());
  // The delivery log keeps settled deliveries a while for the app's owner to read.
  ctx.purges.register(
    "back-channel deliveries",
    (now) =>
      void db
        .delete(backchannelDeliveries)
        .where(and(ne(backchannelDeliveries.status, "pending"), lt(backchannelDeliveries.createdAt, now - KEEP_ENDED_MS)))
        .run(),
  );
  ctx.purges.register("DPoP proof ids", (now) => void db.delete(dpopProofJtis).where(lt(dpopProofJtis.expiresAt, now)).run());
  ctx.purges.register("machine access tokens", (now) => void db.delete(machineTokens).where(lt(machineTokens.expiresAt, now)).run());
  ctx.purges.register(
    "ended grants",
    (now) =>
      void db
        .delete(oauthGrants)
        .where(and(isNotNull(oauthGrants.revokedAt), lt(oauthGrants.revokedAt, now - KEEP_ENDED_MS)))
        .run(),
  );
  // Tokens name their grant without a foreign key (migration 0024): a deleted grant's tokens are
  // dead at once (every use looks the grant up), and their rows go with the expired ones, in the
  // same scan, after the grants just purged.
  const grantIds = () => db.select({ id: oauthGrants.id }).from(oauthGrants);
  ctx.purges.register(
    "access tokens",
    (now) =>
      void db
        .delete(accessTokens)
        .where(or(lt(accessTokens.expiresAt, now), notInArray(accessTokens.grantId, grantIds())))
        .run(),
  );
  ctx.purges.register(
    "refresh tokens",
    (now) =>
      void db
        .delete(refreshTokens)
        .where(or(lt(refreshTokens.expiresAt, now), notInArray(refreshTokens.grantId, grantIds())))
        .run(),
  );
  // Answered and expired 2FA challenges stay a while on their app's page.
  ctx.purges.register(
    "2FA challenges",
    (now) =>
      void db
        .delete(twoFactorChallenges)
        .where(lt(twoFactorChallenges.expiresAt, now - KEEP_ENDED_MS))
        .run(),
  );
  ctx.purges.register("sudo windows", (now) => void db.delete(sudoWindows).where(lt(sudoWindows.expiresAt, now)).run());
  ctx.purges.register("proof-of-work stamps", (now) => void db.delete(powStamps).where(lt(powStamps.expiresAt, now)).run());
}
