import type { Principal } from "./principal.ts";

/**
 * One kind of credential, as the product that issues it reads it: a bearer token of its own
 * shape (a prefix, a JWT) or the session cookie. Added by a new file plus one `register` call.
 */
export type CredentialResolver = {
  /** Where the credential travels. */
  from: "bearer" | "cookie";
  /**
   * Authorization schemes it is taken under besides `Bearer`: `DPoP` (RFC 9449 section 7.1) for
   * kinds that can be bound to a proof key. The resolver is told the scheme used.
   */
  schemes?: readonly AuthScheme[];
  /** Whether a presented value has this kind's shape; kinds do not overlap. */
  accepts(value: string): boolean;
  /** The principal the value names, or null when it is not valid (unknown, expired, revoked). */
  resolve(value: string, request: Request, scheme: AuthScheme): Principal | null | Promise<Principal | null>;
};

/** RFC 6750 `Bearer`, or RFC 9449 `DPoP` with a proof header. */
export type AuthScheme = "Bearer" | "DPoP";

export type Credentials = {
  register(resolver: CredentialResolver): void;
  /** The credential on a request, or null when there is none or it is not valid. */
  resolve(request: Request): Promise<Principal | null>;
};

/** The registry of credential kinds; `cookieOf` reads the session cookie of a request. */
export function createCredentials(cookieOf: (request: Request) => string | null): Credentials {
  const resolvers: CredentialResolver[] = [];
  const pick = (from: CredentialResolver["from"], value: string, scheme: AuthScheme = "Bearer") =>
    resolvers.find((r) => r.from === from && (scheme === "Bearer" || r.schemes?.includes(scheme)) && r.accepts(value));
  return {
    register: (resolver) => void resolvers.push(resolver),
    async resolve(request) {
      const authorization = request.headers.get("authorization");
      if (authorization !== null) {
        const [, name, token] = /^(Bearer|DPoP)\s+(\S+)$/i.exec(authorization) ?? [];
        if (token === undefined) return null;
        const scheme: AuthScheme = name?.toLowerCase() === "dpop" ? "DPoP" : "Bearer";
        const resolver = pick("bearer", token, scheme);
        return resolver ? resolver.resolve(token, request, scheme) : null;
      }
      const cookie = cookieOf(request);
      const resolver = cookie === null ? undefined : pick("cookie", cookie);
      return resolver ? resolver.resolve(cookie as string, request, "Bearer") : null;
    },
  };
}
