import type { Config } from "../config/config.ts";
import { SESSION_COOKIE, SESSION_TTL_MS } from "./sessions.service.ts";

/** `cairn_session`: HttpOnly, SameSite=Lax, Secure on https (ARCHITECTURE section 3). */
export function sessionCookie(config: Pick<Config, "issuer">, token: string): string {
  const secure = config.issuer.startsWith("https:") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}

export function clearedSessionCookie(config: Pick<Config, "issuer">): string {
  const secure = config.issuer.startsWith("https:") ? "; Secure" : "";
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}
