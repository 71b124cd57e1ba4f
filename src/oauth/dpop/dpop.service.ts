import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { checkDpopProof, DPOP_IAT_WINDOW_S, DpopProofError, type VerifiedProof } from "../protocol/dpop.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth">;

/** A refused proof, by RFC 9449 code; the token endpoint and the resources answer it each in their way. */
export class DpopRefusal extends Error {
  override name = "DpopRefusal";
  constructor(
    readonly code: "invalid_dpop_proof" | "use_dpop_nonce",
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * The request's DPoP proof (RFC 9449 section 4.3), checked for this method and URL, with the
 * server's nonce when CAIRN_DPOP_NONCE asks for one, and its `jti` claimed by a primary-key
 * insert, so of identical concurrent proofs exactly one passes. Null when no `DPoP` header came.
 */
export async function requestProof(ctx: Ctx, request: Request, expect: { method: string; url: string; accessToken?: string }): Promise<VerifiedProof | null> {
  const header = request.headers.get("dpop");
  if (header === null) return null;
  // Repeated headers arrive joined by commas, which a JWT never contains.
  if (header.includes(",")) throw new DpopRefusal("invalid_dpop_proof", "send exactly one DPoP header");
  const now = ctx.clock.now();
  let proof: VerifiedProof;
  try {
    proof = await checkDpopProof(header.trim(), { ...expect, now });
  } catch (e) {
    if (e instanceof DpopProofError) throw new DpopRefusal("invalid_dpop_proof", e.message);
    throw e;
  }
  if (ctx.config.dpopNonce && !ctx.oauth.dpopNonces.accepts(proof.nonce, now))
    throw new DpopRefusal("use_dpop_nonce", proof.nonce === null ? "this server requires a DPoP nonce" : "the DPoP nonce is not current");
  const claimed = await ctx.oauth.jtiClaims.dpop.run({ key: `${proof.jkt}:${proof.jti}`, expiresAt: (proof.iat + DPOP_IAT_WINDOW_S) * 1000 + 60_000 });
  if (changedRows(claimed) !== 1) throw new DpopRefusal("invalid_dpop_proof", "the DPoP proof was already used (its jti is spent)");
  return proof;
}

/** The nonce a response hands out when nonces are required (RFC 9449 section 8.2), else nothing. */
export const nonceHeader = (ctx: Ctx): Record<string, string> => (ctx.config.dpopNonce ? { "dpop-nonce": ctx.oauth.dpopNonces.current(ctx.clock.now()) } : {});
