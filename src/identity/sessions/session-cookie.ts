import { clearedAuthzCookie } from "../../access/authz-cookie.ts";
import { cookieHeader, SESSION_COOKIE } from "../../access/cookies.ts";
import type { Config } from "../../config/config.ts";
import { SESSION_TTL_MS } from "./sessions.service.ts";

type Issuer = Pick<Config, "issuer">;

/** The IdP session cookie, its Max-Age sliding with the session's 14 days. */
export const sessionCookie = (config: Issuer, token: string) => cookieHeader(config, SESSION_COOKIE, token, SESSION_TTL_MS / 1000);
export const clearedSessionCookie = (config: Issuer) => cookieHeader(config, SESSION_COOKIE, "", 0);
/** What a sign-out clears: the IdP session cookie and forward auth's cookie for the apps behind the proxy (issue 45). */
export const signOutCookies = (config: Pick<Config, "issuer" | "cookieDomain">) => [clearedSessionCookie(config), clearedAuthzCookie(config)];
