import type { Principal } from "./principal.ts";

/**
 * One kind of credential, as the product that issues it reads it: a bearer token of its own
 * shape (a prefix, a JWT) or the session cookie. Added by a new file plus one `register` call.
 */
export type CredentialResolver = {
  /** Where the credential travels. */
  from: "bearer" | "cookie";
  /** Whether a presented value has this kind's shape; kinds do not overlap. */
  accepts(value: string): boolean;
  /** The principal the value names, or null when it is not valid (unknown, expired, revoked). */
  resolve(value: string, request: Request): Principal | null | Promise<Principal | null>;
};

export type Credentials = {
  register(resolver: CredentialResolver): void;
  /** The credential on a request, or null when there is none or it is not valid. */
  resolve(request: Request): Promise<Principal | null>;
};

/** The registry of credential kinds; `cookieOf` reads the session cookie of a request. */
export function createCredentials(cookieOf: (request: Request) => string | null): Credentials {
  const resolvers: CredentialResolver[] = [];
  const pick = (from: CredentialResolver["from"], value: string) => resolvers.find((r) => r.from === from && r.accepts(value));
  return {
    register: (resolver) => void resolvers.push(resolver),
    async resolve(request) {
      const authorization = request.headers.get("authorization");
      if (authorization !== null) {
        const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
        const resolver = token === undefined ? undefined : pick("bearer", token);
        return resolver ? resolver.resolve(token as string, request) : null;
      }
      const cookie = cookieOf(request);
      const resolver = cookie === null ? undefined : pick("cookie", cookie);
      return resolver ? resolver.resolve(cookie as string, request) : null;
    },
  };
}
