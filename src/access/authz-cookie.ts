import type { Config } from "../config/config.ts";
import { cookieLine, isHttps } from "./cookies.ts";

type CookieConfig = Pick<Config, "issuer" | "cookieDomain">;

/** Forward auth's cookie (issue 45): the apps behind the proxy see it, so it is never the session JWT. */
export const AUTHZ_COOKIE = "cairn_authz";

/**
 * Its name on this instance: `__Secure-` on https (a browser takes it only Secure). Not `__Host-`,
 * which forbids the Domain it needs to reach the other apps of CAIRN_COOKIE_DOMAIN.
 */
export const authzCookieName = (config: Pick<Config, "issuer">) => (isHttps(config) ? `__Secure-${AUTHZ_COOKIE}` : AUTHZ_COOKIE);

/** `name=value` for CAIRN_COOKIE_DOMAIN (else Cairn's host only), HttpOnly, SameSite=Lax, Path=/, Secure on https; Max-Age=0 clears it. */
export function authzCookieHeader(config: CookieConfig, value: string, maxAgeSeconds: number): string {
  return cookieLine(config, authzCookieName(config), value, maxAgeSeconds, config.cookieDomain);
}

/** Clears it where it was set (a cookie is only replaced by one of the same name, Domain and Path). */
export const clearedAuthzCookie = (config: CookieConfig) => authzCookieHeader(config, "", 0);
