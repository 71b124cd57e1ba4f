/**
 * The integration catalog's entries as the API answers them (`GET /api/integrations`), shared by
 * the server that checks them and the SPA that offers them.
 */

/** What a catalog entry asks the user before registering: the app's address, its redirect URI, or nothing. */
export const ASKS = ["base_url", "redirect_uri", "none"] as const;
/** The secret-based methods and public clients: an entry never needs the user to bring a key set. */
export const ENTRY_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;
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

/** One application of the catalog (`catalog/<id>.yaml`). */
export type Integration = {
  id: string;
  name: string;
  category: string;
  description: string;
  docs_url: string;
  ask: (typeof ASKS)[number];
  /** For `ask: base_url`: the field's label and an example value. */
  base_url_label: string | null;
  base_url_example: string | null;
  /** `{{base_url}}…` paths, `{{redirect_uri}}`, or fixed URLs (the app's own cloud callback). */
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  token_endpoint_auth_method: (typeof ENTRY_AUTH_METHODS)[number];
  id_token_signed_response_alg: string;
  jwks: (typeof JWKS_CHOICES)[number];
  scopes: string[];
  /** The claims the app reads (shown first in a test login's report). */
  claims_used: string[];
  snippet: { title: string; language: string; text: string };
  notes: string;
};
