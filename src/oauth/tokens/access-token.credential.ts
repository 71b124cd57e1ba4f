import type { CredentialResolver } from "../../auth/credentials.ts";
import type { AppContext } from "../../context/context.ts";
import { findActiveAccessToken } from "./tokens.service.ts";

// Access tokens are 32 random bytes in base64url (randomToken(32)): 43 characters, nothing else.
const ACCESS_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** An OAuth access token as Bearer (RFC 6750 section 2.1): the user, limited to its scopes. */
export function accessTokenCredential(ctx: Pick<AppContext, "db" | "clock" | "oauth">): CredentialResolver {
  return {
    from: "bearer",
    accepts: (value) => ACCESS_TOKEN.test(value),
    resolve(token) {
      const access = findActiveAccessToken(ctx, token);
      return access && { kind: "access_token", user: access.user, clientId: access.clientId, scopes: access.scopes, acr: access.grant.acr };
    },
  };
}
