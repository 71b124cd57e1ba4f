import { createHmac, randomBytes } from "node:crypto";

/** A nonce stands for this long, and the one before it is still taken (RFC 9449 section 8). */
export const DPOP_NONCE_WINDOW_MS = 5 * 60_000;

/**
 * Server-provided DPoP nonces without storage: an HMAC of the current time window under a key
 * made at start. A restart changes the key; clients then get `use_dpop_nonce` once and retry.
 */
export function createDpopNonces() {
  const key = randomBytes(32);
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
