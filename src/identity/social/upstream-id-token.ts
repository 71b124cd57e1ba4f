import { createRemoteJWKSet, customFetch, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { AppContext } from "../../context/context.ts";
import { guardedFetch, UpstreamFailure } from "./upstream.ts";

/** Leeway for the provider's clock against ours, in seconds (as openid-client allows). */
const CLOCK_TOLERANCE_S = 30;

/**
 * The provider's published keys (its discovery `jwks_uri`), fetched through the outbound guard;
 * jose keeps them and fetches again for a key id it does not know yet (a rotation).
 */
export function upstreamKeySet(ctx: Pick<AppContext, "outbound">, jwksUri: string | undefined): JWTVerifyGetKey {
  if (!jwksUri) return () => Promise.reject(new UpstreamFailure("unverified", "the provider's discovery document names no jwks_uri"));
  return createRemoteJWKSet(new URL(jwksUri), { [customFetch]: guardedFetch(ctx) });
}

type Expected = { issuer: string; audience: string; nonce: string; algorithms: string[] | undefined };

/**
 * OpenID Connect Core 1.0 section 3.1.3.7: the ID token is verified here whatever the client
 * library did (openid-client 6 checks its claims but not its signature when it came over TLS):
 * the signature by one of the provider's published keys, then iss, aud, exp and the nonce sent.
 */
export async function verifyUpstreamIdToken(ctx: Pick<AppContext, "clock">, keys: JWTVerifyGetKey, idToken: string, expected: Expected): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: expected.issuer,
      audience: expected.audience,
      algorithms: expected.algorithms?.filter((alg) => alg !== "none" && !alg.startsWith("HS")),
      requiredClaims: ["sub", "exp", "iat"],
      currentDate: new Date(ctx.clock.now()),
      clockTolerance: CLOCK_TOLERANCE_S,
    }));
  } catch (e) {
    if (e instanceof errors.JOSEError && !(e instanceof errors.JWKSTimeout)) throw new UpstreamFailure("unverified", `ID token refused: ${e.message}`);
    throw e;
  }
  if (payload.nonce !== expected.nonce) throw new UpstreamFailure("unverified", "ID token refused: its nonce is not the one this sign-in sent");
  return payload;
}
