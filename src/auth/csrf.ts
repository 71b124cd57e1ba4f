import type { Config } from "../config/config.ts";
import { denied } from "./auth.errors.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** Says what went wrong: most often the instance was opened at an address other than CAIRN_ISSUER. */
function crossSite(config: Pick<Config, "issuer">, origin: string | null) {
  const ours = new URL(config.issuer).origin;
  return denied(
    origin === null
      ? `Cross-site request refused: a write from a browser must carry this site's Origin (${ours}).`
      : `Cross-site request refused: this Cairn is configured as ${ours} (CAIRN_ISSUER) and the request came from ${origin}. Open ${ours}, or start Cairn with CAIRN_ISSUER=${origin}.`,
  );
}

/**
 * A cookie rides along with cross-site requests, so a cookie-authenticated write must come
 * from our own pages: its Origin must be the issuer's. Bearer callers are not at risk.
 */
export function assertSameOrigin(config: Pick<Config, "issuer">, request: Request): void {
  if (SAFE.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin === null || origin !== new URL(config.issuer).origin) throw crossSite(config, origin);
}

/** For unauthenticated writes (sign-in, register): refuse only a foreign Origin (login CSRF). */
export function assertNotCrossSite(config: Pick<Config, "issuer">, request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(config.issuer).origin) throw crossSite(config, origin);
}
