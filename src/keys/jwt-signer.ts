import { base64url, CompactSign, type JWTPayload } from "jose";
import type { AppContext } from "../context/context.ts";
import { type SigningKey, signingKey } from "./keystore.ts";

const utf8 = new TextEncoder();

export { ID_TOKEN_ALGS } from "../contract/api/apps.ts";

/**
 * ML-DSA-65 without WebCrypto support: @noble/post-quantum signs (about 17 ms instead of 0.4).
 * The private JWK's `priv` is the FIPS 204 seed, so both implementations hold the same key.
 */
async function signWithNoble(key: SigningKey, header: Record<string, unknown>, payload: JWTPayload): Promise<string> {
  const { ml_dsa65 } = await import("@noble/post-quantum/ml-dsa.js"); // only when WebCrypto lacks ML-DSA
  const seed = base64url.decode(key.privateJwk.priv as string);
  const { secretKey } = ml_dsa65.keygen(seed);
  const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}`;
  return `${input}.${base64url.encode(ml_dsa65.sign(new TextEncoder().encode(input), secretKey))}`;
}

/** Signs a JWT with the instance's current key for `use` and `alg`. */
export async function signJwt(
  ctx: Pick<AppContext, "db" | "clock" | "secrets" | "keys">,
  use: string,
  alg: string,
  payload: JWTPayload,
  typ = "JWT",
  forceFallback = false,
): Promise<string> {
  const key = await signingKey(ctx, use, alg);
  const header = { alg, kid: key.kid, typ };
  // The claims as JWS bytes, as SignJWT would make them, without the deep copy SignJWT takes first
  // (about 10 µs for an ID token, on the request thread).
  if (key.privateKey && !forceFallback) return new CompactSign(utf8.encode(JSON.stringify(payload))).setProtectedHeader(header).sign(key.privateKey);
  if (alg !== "ML-DSA-65") throw new Error(`no signer for ${alg} in this runtime`);
  return signWithNoble(key, header, payload);
}
