import type { AppContext } from "../context.ts";
import { findActivePat, PAT_PREFIX } from "../identity/pats/pats.lookup.ts";
import type { UserRow } from "../identity/users/users.table.ts";
import { findActiveAccessToken } from "../oauth/tokens/tokens.service.ts";
import type { SessionRow } from "./sessions.table.ts";
import { cookieName, readCookie, SESSION_COOKIE } from "./cookies.ts";
import { validateSessionJwt } from "./sessions.service.ts";

/** Who is calling (ARCHITECTURE section 3). Access tokens join this union with the OAuth issue. */
export type Principal =
  | { kind: "session"; user: UserRow; session: SessionRow; viaCookie: boolean; token: string; slid: boolean }
  | { kind: "pat"; user: UserRow; tokenId: string; scopes: string[] }
  | { kind: "access_token"; user: UserRow; clientId: string; scopes: string[]; acr: string };

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
  const cookie = readCookie(request, cookieName(ctx.config, SESSION_COOKIE));
  if (!cookie) return null;
  const active = await validateSessionJwt(ctx, cookie);
  return active && { kind: "session", ...active, viaCookie: true, token: cookie };
}

/** A session may do all its user's role allows; a token only what its scopes name. */
export function hasScope(principal: Principal, scope: string): boolean {
  return principal.kind === "session" || principal.scopes.includes(scope);
}
