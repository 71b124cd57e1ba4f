import { createHmac } from "node:crypto";

/** A nonce stands for this long, and the one before it is still taken (RFC 9449 section 8). */
export const DPOP_NONCE_WINDOW_MS = 5 * 60_000;

/**
 * Server-provided DPoP nonces without storage: an HMAC of the current time window under a key
 * derived from the instance secret, so every worker takes the nonces any of them handed out,
 * also after a restart.
 */
export function createDpopNonces(key: Buffer) {
  const at = (window: number) => createHmac("sha256", key).update(String(window)).digest("base64url").slice(0, 32);
  return {
    current: (now: number) => at(Math.floor(now / DPOP_NONCE_WINDOW_MS)),
    accepts(nonce: string | null, now: number): boolean {
      const window = Math.floor(now / DPOP_NONCE_WINDOW_MS);
      return nonce !== null && (nonce === at(window) || nonce === at(window - 1));
    },
  };
}

export type DpopNonces = ReturnType<typeof createDpopNonces>;
