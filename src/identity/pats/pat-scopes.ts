// Pure data, imported by the server and by the web app alike.

/** Scopes a personal access token may carry (spec 1 section 2.3). */
export const PAT_SCOPES = ["profile", "profile:write", "email", "apps:read", "apps:write", "teams:read", "teams:write", "teams:create", "teams:delete"] as const;

/** Only administrators may give these to a token. */
export const ADMIN_PAT_SCOPES = [
  "admin:users:read",
  "admin:users:write",
  "admin:users:delete",
  "admin:config:read",
  "admin:config:write",
  "admin:invites:read",
  "admin:invites:create",
  "admin:invites:delete",
] as const;
