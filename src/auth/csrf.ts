import type { Config } from "../config/config.ts";
import { denied } from "../identity/identity.errors.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A cookie rides along with cross-site requests, so a cookie-authenticated write must come
 * from our own pages: its Origin must be the issuer's. Bearer callers are not at risk.
 */
export function assertSameOrigin(config: Pick<Config, "issuer">, request: Request): void {
  if (SAFE.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin === null || origin !== new URL(config.issuer).origin)
    throw denied("Cross-site request refused: the Origin header must be this site's.");
}

/** For unauthenticated writes (sign-in, register): refuse only a foreign Origin (login CSRF). */
export function assertNotCrossSite(config: Pick<Config, "issuer">, request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(config.issuer).origin)
    throw denied("Cross-site request refused: the Origin header must be this site's.");
}
