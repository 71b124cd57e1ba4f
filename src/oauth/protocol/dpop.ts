import { base64url, calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, errors, jwtVerify } from "jose";
import { sha256 } from "../../shared/crypto.ts";

/** RFC 9449 section 4.2 proof algorithms this server verifies (spec 1 section 5 rule 3). */
export const DPOP_ALGS = ["RS256", "ES256", "EdDSA"] as const;
/** How far a proof's `iat` may lie from the server's clock, either way (RFC 9449 section 11.1). */
export const DPOP_IAT_WINDOW_S = 60;

/** A proof that passed every check: the thumbprint its tokens bind to, and its one-use id. */
export type VerifiedProof = { jkt: string; jti: string; iat: number; nonce: string | null };

/** Why a proof is refused, in words for the client's developer (RFC 9449 `invalid_dpop_proof`). */
export class DpopProofError extends Error {
  override name = "DpopProofError";
}

/**
 * RFC 9449 section 4.3 rule 9: `htu` compared without query and fragment, scheme and host in
 * lower case, default ports dropped. Null when it is not an absolute http(s) URL.
 */
export function normalizeHtu(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** RFC 9449 section 4.2 `ath`: base64url of the SHA-256 of the access token's ASCII. */
export const accessTokenHash = (accessToken: string): string => base64url.encode(sha256(accessToken));

/**
 * Checks a DPoP proof (RFC 9449 section 4.3) for a request: a JWT of `typ: dpop+jwt`, signed with
 * one of DPOP_ALGS by the public key in its own `jwk` header (no private parts), whose `htm` and
 * `htu` name this request, whose `iat` is within the window, with a `jti`, and at a resource an
 * `ath` of the presented access token. Pure apart from the signature check: the `jti` is claimed
 * by the caller.
 */
export async function checkDpopProof(proof: string, expect: { method: string; url: string; now: number; accessToken?: string }): Promise<VerifiedProof> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw new DpopProofError("the DPoP proof is not a JWT");
  }
  if (header.typ !== "dpop+jwt") throw new DpopProofError('the DPoP proof must have typ "dpop+jwt"');
  if (!(DPOP_ALGS as readonly string[]).includes(String(header.alg))) throw new DpopProofError(`the DPoP proof must be signed with ${DPOP_ALGS.join(", ")}`);
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || typeof jwk !== "object") throw new DpopProofError("the DPoP proof must carry its public key in the jwk header");
  if (["d", "p", "q", "dp", "dq", "qi", "k"].some((member) => member in jwk)) throw new DpopProofError("the DPoP proof's jwk must be a public key");

  let payload: Awaited<ReturnType<typeof jwtVerify>>["payload"];
  try {
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: [...DPOP_ALGS] }));
  } catch (e) {
    throw new DpopProofError(e instanceof errors.JOSEError ? `the DPoP proof's signature does not verify (${e.code})` : "the DPoP proof does not verify");
  }
  const { htm, htu, iat, jti, ath, nonce } = payload as Record<string, unknown>;
  if (typeof jti !== "string" || jti.length === 0 || jti.length > 256) throw new DpopProofError("the DPoP proof needs a jti");
  if (htm !== expect.method) throw new DpopProofError(`the DPoP proof's htm must be ${expect.method}`);
  const proofHtu = typeof htu === "string" ? normalizeHtu(htu) : null;
  if (proofHtu === null || proofHtu !== normalizeHtu(expect.url)) throw new DpopProofError(`the DPoP proof's htu must be ${normalizeHtu(expect.url)}`);
  if (typeof iat !== "number" || !Number.isFinite(iat)) throw new DpopProofError("the DPoP proof needs an iat");
  if (Math.abs(iat - expect.now / 1000) > DPOP_IAT_WINDOW_S)
    throw new DpopProofError(`the DPoP proof's iat must be within ${DPOP_IAT_WINDOW_S} seconds of now`);
  if (expect.accessToken !== undefined && ath !== accessTokenHash(expect.accessToken))
    throw new DpopProofError("the DPoP proof's ath does not match the access token");
  const jkt = await calculateJwkThumbprint(jwk as Parameters<typeof calculateJwkThumbprint>[0], "sha256");
  return { jkt, jti, iat, nonce: typeof nonce === "string" ? nonce : null };
}
