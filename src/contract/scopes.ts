// Pure data shared by the server and the web app (src/contract imports nothing outside itself).

/** Every scope this server knows (spec 1 section 2.3), beyond the bound `team:<id>:...` forms. */
export const KNOWN_SCOPES = [
  "openid",
  "profile",
  "profile:write",
  "email",
  "offline_access",
  "apps:read",
  "apps:write",
  "teams:read",
  "teams:write",
  "teams:create",
  "teams:delete",
  "team:read",
  "team:write",
  "team:delete",
  "team:member:read",
  "team:member:write",
  "team:member:profile:read",
  "domains:read",
  "domains:write",
  "gpg:read",
  "gpg:write",
  "social:read",
  "social:write",
  "admin:users:read",
  "admin:users:write",
  "admin:users:delete",
  "admin:config:read",
  "admin:config:write",
  "admin:invites:read",
  "admin:invites:create",
  "admin:invites:delete",
  "site:user:read",
  "site:user:write",
  "site:user:delete",
  "site:team:read",
  "site:team:write",
  "site:team:delete",
  "site:config:read",
  "site:config:write",
  "site:token:revoke",
] as const;

export const DEFAULT_CLIENT_SCOPES = ["openid", "profile", "email", "offline_access"];

/**
 * Spec 1 section 4.3: a cross-app scope `app:<client_id>:*` lets the app it names exchange the
 * token (RFC 8693) for one of its own, acting for the user. Captures the client id.
 */
export const CROSS_APP_SCOPE = /^app:([A-Za-z0-9_-]{1,64}):\*$/;

/** A scope a client may register and request: a known one, or a cross-app scope. */
export const isKnownScope = (scope: string): boolean => (KNOWN_SCOPES as readonly string[]).includes(scope) || CROSS_APP_SCOPE.test(scope);

/** Scopes that only an administrator may grant. */
export const isAdminScope = (scope: string) => scope.startsWith("admin:") || scope.startsWith("site:");

/** Admin-only scopes fall away for a user who is not an admin (at consent, device approval and exchange alike). */
export const grantableScopes = (scopes: string[], role: string): string[] => scopes.filter((s) => role === "admin" || !isAdminScope(s));

/** Instance configuration, as an admin app reads and changes it: the admin tier, or the site tier (spec 1 section 2.3 rule 9). */
export const CONFIG_READ = ["admin:config:read", "site:config:read"] as const;
export const CONFIG_WRITE = ["admin:config:write", "site:config:write"] as const;

export const OIDC_FIELDS = ["teams", "apps", "domains", "gpg_keys", "social_accounts", "role"] as const;

/** Scopes a personal access token may carry (spec 1 section 2.3). */
export const PAT_SCOPES = [
  "profile",
  "profile:write",
  "email",
  "apps:read",
  "apps:write",
  "teams:read",
  "teams:write",
  "teams:create",
  "teams:delete",
  "domains:read",
  "domains:write",
  "gpg:read",
  "gpg:write",
  "social:read",
  "social:write",
] as const;

/** Only administrators may give these to a token: the instance's admin scopes. */
export const ADMIN_PAT_SCOPES = KNOWN_SCOPES.filter((s) => s.startsWith("admin:"));
