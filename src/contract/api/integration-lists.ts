/**
 * The integration catalog's fixed lists, shared by the server that checks the entries and the
 * schema of its answers (integrations.ts). A plain file: no schema code in it.
 */

/** What a catalog entry asks the user before registering: the app's address, its redirect URI, or nothing. */
export const ASKS = ["base_url", "redirect_uri", "none"] as const;
/** The secret-based methods and public clients: an entry never needs the user to bring a key set. */
export const ENTRY_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;
/** What a catalog entry sets up: an OpenID Connect app it registers, or forward auth at a reverse proxy (no app registered). */
export const INTEGRATION_KINDS = ["oidc", "forward_auth"] as const;
/** The reverse proxies whose forward-auth configuration the catalog writes (integrations/proxy-snippets.ts). */
export const PROXY_KINDS = ["nginx", "caddy", "traefik"] as const;
export type ProxyKind = (typeof PROXY_KINDS)[number];
/** `classic` points the app at the JWKS without post-quantum keys, for parsers that stop at an unknown `kty`. */
export const JWKS_CHOICES = ["all", "classic"] as const;

/** The values a snippet may name; each is `{{name}}` in the entry's text. */
export const PLACEHOLDERS = [
  "issuer",
  "discovery_url",
  "authorization_endpoint",
  "token_endpoint",
  "userinfo_endpoint",
  "end_session_endpoint",
  "jwks_uri",
  "client_id",
  "client_secret",
  "base_url",
  "host",
  "redirect_uri",
  "post_logout_redirect_uri",
  "scopes",
  "scopes_comma",
  /** A fresh random value for the app's own cookie or session key (not a Cairn credential). */
  "random_secret",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
