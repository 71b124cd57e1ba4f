import { type Static, Type } from "@sinclair/typebox";
import { Jwks } from "./apps.ts";

/**
 * Dynamic client registration (`/api/oauth/register`): the client information response of RFC 7591
 * section 3.2.1, answered by registration (201), and by RFC 7592's read and update (200).
 * Metadata is the RFC's (space-separated `scope`, plain redirect URI strings), not the dashboard's.
 */
export const ClientInformation = Type.Object({
  client_id: Type.String(),
  /** A confidential client's secret: on registration, and on an update that gives it one. */
  client_secret: Type.Optional(Type.String()),
  /** 0: the secret does not expire. Present with the secret. */
  client_secret_expires_at: Type.Optional(Type.Number()),
  /** Seconds since the epoch. */
  client_id_issued_at: Type.Number(),
  /** RFC 7592 section 3: rotated on every read and update, so always answered. */
  registration_access_token: Type.Optional(Type.String()),
  registration_client_uri: Type.String(),
  client_name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  token_endpoint_auth_method: Type.String(),
  grant_types: Type.Array(Type.String()),
  response_types: Type.Array(Type.String()),
  scope: Type.String(),
  id_token_signed_response_alg: Type.String(),
  post_logout_redirect_uris: Type.Array(Type.String()),
  /** Present when the client registered them. */
  jwks: Type.Optional(Jwks),
  jwks_uri: Type.Optional(Type.String()),
  backchannel_logout_uri: Type.Optional(Type.String()),
  dpop_bound_access_tokens: Type.Boolean(),
  require_pushed_authorization_requests: Type.Boolean(),
});
export type ClientInformation = Static<typeof ClientInformation>;
