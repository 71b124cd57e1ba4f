import type { CredentialResolver } from "../../access/credentials.ts";
import type { AppContext } from "../../context/context.ts";
import { DpopRefusal, nonceHeader, requestProof } from "../dpop/dpop.service.ts";
import { dpopResourceError } from "../protocol/oauth.errors.ts";
import { looksLike } from "./token-key.ts";
import { type ActiveAccessToken, findActiveAccessToken } from "./tokens.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth">;

/**
 * An OAuth access token (RFC 6750 section 2.1) as the user, limited to its scopes. A DPoP-bound
 * token (RFC 9449 section 7) is taken only under the `DPoP` scheme with a proof from its key for
 * this request (`ath` of the token); an unbound one only as Bearer.
 */
export function accessTokenCredential(ctx: Ctx): CredentialResolver {
  return {
    from: "bearer",
    schemes: ["DPoP"],
    accepts: (value) => looksLike("access", value),
    async resolve(token, request, scheme) {
      const access = await findActiveAccessToken(ctx, token);
      if (!access) return null;
      if (access.jkt !== null || scheme === "DPoP") await assertBinding(ctx, request, token, access, scheme);
      return {
        kind: "access_token",
        user: access.user,
        clientId: access.clientId,
        scopes: access.scopes,
        acr: access.grant.acr,
        authTime: access.grant.authTime,
      };
    },
  };
}

async function assertBinding(ctx: Ctx, request: Request, token: string, access: ActiveAccessToken, scheme: string): Promise<void> {
  const refuse = (code: "invalid_token" | "invalid_dpop_proof" | "use_dpop_nonce", detail: string) =>
    dpopResourceError(ctx.config.issuer, code, detail, nonceHeader(ctx)["dpop-nonce"]);
  if (access.jkt === null) throw refuse("invalid_token", "this access token is not DPoP-bound: send it as Bearer");
  if (scheme !== "DPoP") throw refuse("invalid_token", "this access token is DPoP-bound: send it with the DPoP scheme and a proof");
  let proof: Awaited<ReturnType<typeof requestProof>>;
  try {
    proof = await requestProof(ctx, request, { method: request.method, url: `${ctx.config.issuer}${new URL(request.url).pathname}`, accessToken: token });
  } catch (e) {
    if (e instanceof DpopRefusal) throw refuse(e.code, e.detail);
    throw e;
  }
  if (!proof) throw refuse("invalid_dpop_proof", "a DPoP proof is required with a DPoP-bound access token");
  if (proof.jkt !== access.jkt) throw refuse("invalid_dpop_proof", "the DPoP proof's key is not the one the access token is bound to");
}
