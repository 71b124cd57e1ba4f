import { cookieName, readCookie, SESSION_COOKIE } from "../access/cookies.ts";
import type { Config } from "../config/config.ts";
import { WS_COOKIE } from "../workspace/session/ws-cookie.ts";

/**
 * What the app shell tells the SPA before it asks anything: whether the request came with a
 * session cookie of the identity provider (`signed_in`) and of the workspace (`workspace`); null
 * when unknown. Without one the SPA skips the calls that would only answer 401 (issue 42): noise
 * in the console and in the log. A cookie that is there but no longer valid still reads as signed
 * in; the SPA's first call then finds out, and `GET /api/auth/session` clears such a cookie.
 */
export type ShellHints = { signed_in: boolean | null; workspace: boolean | null };

/** Read from the cookies alone, without a database read or a signature check: the shell stays as cheap as a static file. */
export function shellHints(config: Pick<Config, "issuer">, request: Request): ShellHints {
  return {
    signed_in: readCookie(request, cookieName(config, SESSION_COOKIE)) !== null,
    workspace: readCookie(request, cookieName(config, WS_COOKIE)) !== null,
  };
}

const attribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The `<head>` additions: the configured address and the hints, as the SPA's main.tsx and lib/shell-hints.ts read them. */
export function shellHead(issuer: string, hints: ShellHints): string {
  return `<meta name="cairn-issuer" content="${attribute(issuer)}" /><meta name="cairn-session" content="${attribute(JSON.stringify(hints))}" />`;
}
