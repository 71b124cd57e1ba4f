import type { Config } from "../config/config.ts";
import { denied } from "./access.errors.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Which Origin a request must carry. A cookie rides along with cross-site requests:
 * - `cookie-write`: a cookie-authenticated write must come from our own pages (Origin present
 *   and ours); safe methods pass. Bearer callers are not at risk and are not checked.
 * - `not-foreign`: unauthenticated writes (sign-in, register: login CSRF) and WebSocket or SSE
 *   opens carry an Origin only from browsers, so only a foreign one is refused.
 */
export type OriginRule = "cookie-write" | "not-foreign";

/** The one origin check: why the request is refused under the rule, or null when it passes. */
export function originRefusal(config: Pick<Config, "issuer">, request: Request, rule: OriginRule): string | null {
  if (rule === "cookie-write" && SAFE.has(request.method)) return null;
  const origin = request.headers.get("origin");
  const ours = new URL(config.issuer).origin;
  if (origin === ours || (origin === null && rule === "not-foreign")) return null;
  // Says what went wrong: most often the instance was opened at an address other than CAIRN_ISSUER.
  return origin === null
    ? `Cross-site request refused: a write from a browser must carry this site's Origin (${ours}).`
    : `Cross-site request refused: this Cairn is configured as ${ours} (CAIRN_ISSUER) and the request came from ${origin}. Open ${ours}, or start Cairn with CAIRN_ISSUER=${origin}.`;
}

/** The check for the identity and OAuth APIs: 403 `forbidden` with the reason as description. */
export function assertOrigin(config: Pick<Config, "issuer">, request: Request, rule: OriginRule): void {
  const refusal = originRefusal(config, request, rule);
  if (refusal) throw denied(refusal);
}
