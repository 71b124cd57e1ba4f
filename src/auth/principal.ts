import type { AppContext } from "../context.ts";
import { findActivePat, PAT_PREFIX } from "../identity/pats/pats.lookup.ts";
import type { UserRow } from "../identity/users/users.table.ts";
import { findActiveAccessToken } from "../oauth/tokens/tokens.service.ts";
import type { SessionRow } from "./sessions.table.ts";
import { SESSION_COOKIE, validateSessionJwt } from "./sessions.service.ts";

/** Who is calling (ARCHITECTURE section 3). Access tokens join this union with the OAuth issue. */
export type Principal =
  | { kind: "session"; user: UserRow; session: SessionRow; viaCookie: boolean; token: string; slid: boolean }
  | { kind: "pat"; user: UserRow; tokenId: string; scopes: string[] }
  | { kind: "access_token"; user: UserRow; clientId: string; scopes: string[]; acr: string };

function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A cookie another site (or a sibling subdomain) planted may be malformed: it is then no cookie.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Resolves the credential on a request, or null when there is none or it is not valid. */
export async function resolvePrincipal(ctx: Pick<AppContext, "db" | "clock" | "config" | "secrets">, request: Request): Promise<Principal | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) return null;
    const token = match[1] as string;
    if (token.startsWith(PAT_PREFIX)) {
      const pat = findActivePat(ctx, token);
      return pat && { kind: "pat", ...pat };
    }
    // Session JWTs have three dot-separated parts; access tokens are opaque, without dots.
    if (!token.includes(".")) {
      const access = findActiveAccessToken(ctx, token);
      return access && { kind: "access_token", user: access.user, clientId: access.clientId, scopes: access.scopes, acr: access.grant.acr };
    }
    const active = await validateSessionJwt(ctx, token);
    return active && { kind: "session", ...active, viaCookie: false, token };
  }
  const cookie = cookieValue(request, SESSION_COOKIE);
  if (!cookie) return null;
  const active = await validateSessionJwt(ctx, cookie);
  return active && { kind: "session", ...active, viaCookie: true, token: cookie };
}

/** A session may do all its user's role allows; a token only what its scopes name. */
export function hasScope(principal: Principal, scope: string): boolean {
  return principal.kind === "session" || principal.scopes.includes(scope);
}
