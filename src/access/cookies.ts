import type { Config } from "../config/config.ts";

type Issuer = Pick<Config, "issuer">;

/** Whether the instance is served over https: its cookies are then Secure and take a prefix. */
export const isHttps = (config: Issuer) => config.issuer.startsWith("https:");

/**
 * A cookie's name on this instance. On https it takes the `__Host-` prefix: browsers then accept
 * it only Secure, from this very host, with Path=/ and no Domain, so a sibling subdomain can
 * neither plant nor shadow it.
 */
export function cookieName(config: Issuer, base: string): string {
  return isHttps(config) ? `__Host-${base}` : base;
}

/**
 * `name=value`, HttpOnly, SameSite=Lax, Path=/, Secure on https (ARCHITECTURE section 3); Max-Age=0
 * clears it. `name` is the whole name, its prefix included; `domain` only for forward auth's cookie.
 */
export function cookieLine(config: Issuer, name: string, value: string, maxAgeSeconds: number, domain: string | null = null): string {
  return `${name}=${value}; Path=/${domain === null ? "" : `; Domain=${domain}`}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${isHttps(config) ? "; Secure" : ""}`;
}

/** An instance cookie: `__Host-` on https (cookieName), on this host only. */
export function cookieHeader(config: Issuer, base: string, value: string, maxAgeSeconds: number): string {
  return cookieLine(config, cookieName(config, base), value, maxAgeSeconds);
}

/** The one cookie reader: the value of `name` (already prefixed), or null when absent or malformed. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A cookie another site (or a sibling subdomain) planted may be malformed: it is then no cookie.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim()) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The IdP's session cookie (ARCHITECTURE section 3), read by the kernel's credential registry. */
export const SESSION_COOKIE = "cairn_session";
