/**
 * The account behind a principal. The kernel needs only these fields; the identity product
 * widens the type to its users row (declaration merging in identity/identity.context.ts), so
 * routes read every field of the user without the kernel knowing identity's tables.
 */
export interface PrincipalUser {
  id: string;
  role: "admin" | "user";
}

/** A signed-in session as the kernel sees it; widened to identity's sessions row likewise. */
export interface PrincipalSession {
  id: string;
  acr: string;
}

/** Who is calling (ARCHITECTURE section 3). */
export type Principal =
  | {
      kind: "session";
      user: PrincipalUser;
      session: PrincipalSession;
      viaCookie: boolean;
      token: string;
      slid: boolean;
      /** A Set-Cookie the answer carries: a cookie session slid, and the browser's Max-Age follows. */
      renewCookie?: string;
    }
  | { kind: "pat"; user: PrincipalUser; tokenId: string; scopes: string[] }
  /** `acr` and `authTime` (seconds) are the sign-in the token came from: RFC 9470 step-up reads them. */
  | { kind: "access_token"; user: PrincipalUser; clientId: string; scopes: string[]; acr: string; authTime: number };

export type SessionPrincipal = Extract<Principal, { kind: "session" }>;

/** A session may do all its user's role allows; a token only what its scopes name. */
export function hasScope(principal: Principal, scope: string): boolean {
  return principal.kind === "session" || principal.scopes.includes(scope);
}

/** `scope`, or any one of a list of alternatives. */
export function hasAnyScope(principal: Principal, scope: string | readonly string[]): boolean {
  return typeof scope === "string" ? hasScope(principal, scope) : scope.some((s) => hasScope(principal, s));
}
