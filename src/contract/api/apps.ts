import { type Static, Type } from "@sinclair/typebox";
import { oneOf, orNull } from "./common.ts";

/**
 * "My apps" (`/api/oauth/me/clients`), the admin's verified mark, and what an app's page shows:
 * its back-channel logout deliveries and the tokens it holds for itself.
 */

/** How a redirect URI is compared (spec 1 section 2.1). */
export const MATCH_TYPES = ["equals", "wildcard", "regex"] as const;
/** How a client authenticates at the token-family endpoints (discovery advertises the same list). */
export const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"] as const;
/** The ID token algorithms a client may choose (spec 1 section 2.5: ML-DSA-65 by default). */
export const ID_TOKEN_ALGS = ["ML-DSA-65", "RS256"] as const;

export const MatchType = oneOf(MATCH_TYPES);
export type MatchType = Static<typeof MatchType>;
export const RedirectEntry = Type.Object({ uri: Type.String(), match: MatchType });
export type RedirectEntry = Static<typeof RedirectEntry>;
/** The dashboard offers all but `private_key_jwt`, which needs a key set (kept when an app has it). */
export const AuthMethod = oneOf(AUTH_METHODS);
export type AuthMethod = Static<typeof AuthMethod>;
export const IdTokenAlg = oneOf(ID_TOKEN_ALGS);
export type IdTokenAlg = Static<typeof IdTokenAlg>;
/** A client's public keys (RFC 7591 section 2), kept as given. */
export const Jwks = Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) });

/** The client as its owner sees it; the secret is never in it. */
export const App = Type.Object({
  client_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  public: Type.Boolean(),
  redirect_uris: Type.Array(RedirectEntry),
  post_logout_redirect_uris: Type.Array(Type.String()),
  grant_types: Type.Array(Type.String()),
  token_endpoint_auth_method: AuthMethod,
  jwks: orNull(Jwks),
  jwks_uri: orNull(Type.String()),
  id_token_signed_response_alg: IdTokenAlg,
  backchannel_logout_uri: orNull(Type.String()),
  oidc_fields: Type.Array(Type.String()),
  scopes: Type.Array(Type.String()),
  dpop_bound_access_tokens: Type.Boolean(),
  require_pushed_authorization_requests: Type.Boolean(),
  client_credentials_scopes: Type.Array(Type.String()),
  is_verified: Type.Boolean(),
  /** The catalog entry it was registered from (its setup is at `/setup`), or null. */
  integration: orNull(Type.String()),
  created_at: Type.Number(),
});
export type App = Static<typeof App>;

/** `POST /api/oauth/me/clients` (201): a confidential app's secret comes back this once. */
export const CreatedApp = Type.Object({ ...App.properties, client_secret: Type.Optional(Type.String()) });
export type CreatedApp = Static<typeof CreatedApp>;

export const AppList = Type.Object({ clients: Type.Array(App) });
export type AppList = Static<typeof AppList>;

/** `POST /api/oauth/me/clients/:clientId/secret`. */
export const RotatedSecret = Type.Object({ client_secret: Type.String() });
export type RotatedSecret = Static<typeof RotatedSecret>;

/** One back-channel logout token owed to an app, as its delivery log shows it. */
export const Delivery = Type.Object({
  id: Type.String(),
  status: oneOf(["pending", "delivered", "failed"]),
  attempts: Type.Number(),
  sid: Type.String(),
  last_error: orNull(Type.String()),
  created_at: Type.Number(),
  delivered_at: orNull(Type.Number()),
  /** Only while pending. */
  next_attempt_at: orNull(Type.Number()),
});
export type Delivery = Static<typeof Delivery>;
export const DeliveryLog = Type.Object({ deliveries: Type.Array(Delivery) });
export type DeliveryLog = Static<typeof DeliveryLog>;

/** A client credentials token as the app's page lists it (never its value). */
export const MachineToken = Type.Object({
  scope: Type.String(),
  audience: Type.Array(Type.String()),
  dpop_bound: Type.Boolean(),
  created_at: Type.Number(),
  expires_at: Type.Number(),
});
export type MachineToken = Static<typeof MachineToken>;
export const MachineTokenList = Type.Object({ tokens: Type.Array(MachineToken) });
export type MachineTokenList = Static<typeof MachineTokenList>;
