import type { Server } from "bun";
import { signingInClient } from "../../access/client-info.ts";
import { cookieHeader, cookieName, readCookie } from "../../access/cookies.ts";
import type { Config } from "../../config/config.ts";
import { randomToken } from "../../shared/crypto.ts";

/** The browser's own random mark, by which a sign-in from it is known again (issue 44 item 5). */
const DEVICE_COOKIE = "cairn_device";
/** Browsers keep a cookie 400 days at most (RFC 6265bis): asking for longer gains nothing. */
export const DEVICE_COOKIE_DAYS = 400;
/** What randomToken(32) makes: anything else in the cookie was not ours. */
const DEVICE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The browser's device mark, or a new one for a browser without (or with a mangled) one. */
function deviceOf(config: Pick<Config, "issuer">, request: Request): string {
  const value = readCookie(request, cookieName(config, DEVICE_COOKIE));
  return value !== null && DEVICE_VALUE.test(value) ? value : randomToken(32);
}

/** Sent with every sign-in, so the mark's life starts again. */
export const deviceCookie = (config: Pick<Config, "issuer">, device: string) => cookieHeader(config, DEVICE_COOKIE, device, DEVICE_COOKIE_DAYS * 24 * 3600);

/** Who signs in from where (access/client-info.ts), with the browser's device mark. */
export const signingInBrowser = (config: Pick<Config, "issuer" | "trustProxy">, request: Request, server: Server<unknown> | null | undefined) => ({
  ...signingInClient(request, server, config.trustProxy),
  device: deviceOf(config, request),
});
