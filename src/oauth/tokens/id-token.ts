import type { AppContext } from "../../context/context.ts";
import type { UserRow } from "../../identity/users/users.table.ts";
import { scopeClaims } from "../claims/claims.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { signJwt } from "../../keys/jwt-signer.ts";
import { ID_TOKEN_TTL_S } from "./lifetimes.ts";
import type { GrantRow } from "./tokens.service.ts";

/** Spec 1 section 2.5: ML-DSA-65 unless the client asked for RS256. */
export async function issueIdToken(
  ctx: Pick<AppContext, "db" | "clock" | "config" | "secrets" | "keys" | "oauth">,
  client: ClientRow,
  user: UserRow,
  grant: GrantRow,
  nonce: string | null,
): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  const payload = {
    iss: ctx.config.issuer,
    sub: user.id,
    aud: client.clientId,
    iat: now,
    exp: now + ID_TOKEN_TTL_S,
    auth_time: grant.authTime,
    amr: grant.amr,
    acr: grant.acr,
    role: user.role,
    ...(nonce ? { nonce } : {}),
    ...(grant.sid ? { sid: grant.sid } : {}),
    ...(await scopeClaims(ctx, user, grant.scopes, client.oidcFields)),
  };
  return signJwt(ctx, "id_token", client.idTokenSignedResponseAlg, payload);
}
