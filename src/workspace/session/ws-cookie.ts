import { cookieName, readCookie } from "../../access/cookies.ts";
import type { AppContext } from "../../context/context.ts";

/** The workspace's own session cookie (ARCHITECTURE section 4, "Workspace sign-in"). */
export const WS_COOKIE = "cairn_ws";

/** The value of the request's `cairn_ws` cookie, or null. */
export const wsCookieOf = (ctx: Pick<AppContext, "config">, request: Request): string | null => readCookie(request, cookieName(ctx.config, WS_COOKIE));
