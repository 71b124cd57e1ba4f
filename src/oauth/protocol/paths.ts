/**
 * The OAuth/OIDC endpoints' paths: the routes are registered on them and discovery advertises
 * them, from this one table.
 */
export const OAUTH_PATHS = {
  authorization: "/api/oauth/authorize",
  token: "/api/oauth/token",
  userinfo: "/api/oauth/userinfo",
  introspection: "/api/oauth/introspect",
  revocation: "/api/oauth/revoke",
  registration: "/api/oauth/register",
  par: "/api/oauth/par",
  deviceAuthorization: "/api/oauth/device_authorization",
  endSession: "/api/oauth/end_session",
  jwks: "/.well-known/jwks.json",
  /** The same keys without the post-quantum ones, for parsers that stop at an unknown `kty` (not in discovery). */
  jwksClassic: "/api/oauth/jwks/classic",
} as const;

/** The 2FA re-confirmation API (spec 1 section 4.4): not in discovery, which has no names for it. */
export const TWO_FA_PATHS = {
  challenges: "/api/oauth/2fa/challenges",
  info: "/api/oauth/2fa/info",
  passkeyOptions: "/api/oauth/2fa/passkey-options",
  authorize: "/api/oauth/2fa/authorize",
  verify: "/api/oauth/2fa/verify",
  sudoRevoke: "/api/oauth/2fa/sudo/revoke",
} as const;

/**
 * Browser apps (public clients with PKCE) call these from their own origin, with no cookie: they
 * answer with CORS headers, and their preflight is answered.
 */
export const CORS_PATHS: readonly string[] = [
  OAUTH_PATHS.token,
  OAUTH_PATHS.userinfo,
  OAUTH_PATHS.introspection,
  OAUTH_PATHS.revocation,
  OAUTH_PATHS.par,
  OAUTH_PATHS.deviceAuthorization,
  TWO_FA_PATHS.challenges,
  TWO_FA_PATHS.verify,
];
