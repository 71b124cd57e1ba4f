import { type Static, Type } from "@sinclair/typebox";

/**
 * What a person grants apps and takes back: the consent step of the authorize endpoint
 * (`/api/oauth/interaction/:id`), the device flow's lookup, RP-initiated logout's confirmation,
 * the authorized apps (`/api/oauth/me/consents`) and the site's revocation of a user's tokens.
 */

/** An app as a person deciding about it sees it. */
export const ClientBadge = Type.Object({ client_id: Type.String(), name: Type.String(), is_verified: Type.Boolean() });
export type ClientBadge = Static<typeof ClientBadge>;

/** `GET /api/oauth/interaction/:id`: what the consent page shows (ARCHITECTURE section 4). */
export const Interaction = Type.Object({
  client: ClientBadge,
  scopes: Type.Array(Type.String()),
  team_picker: Type.Boolean(),
  eligible_teams: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  site_confirmation: Type.Boolean(),
  /** Names of the apps that cross-app scopes (`app:<client_id>:*`) name, by client id. */
  apps: Type.Record(Type.String(), Type.String()),
});
export type Interaction = Static<typeof Interaction>;

/** Where to send the browser next: the app's redirect URI with a code or an error, or a page of ours. */
export const RedirectTo = Type.Object({ redirect_to: Type.String() });
export type RedirectTo = Static<typeof RedirectTo>;

/** `GET /api/oauth/device/lookup`: a pending device request (RFC 8628) as the `/device` page shows it. */
export const DeviceRequest = Type.Object({ client: ClientBadge, scopes: Type.Array(Type.String()), user_code: Type.String() });
export type DeviceRequest = Static<typeof DeviceRequest>;

/** An app the user authorized, for "authorized apps". */
export const Consent = Type.Object({
  client_id: Type.String(),
  name: Type.String(),
  is_verified: Type.Boolean(),
  scopes: Type.Array(Type.String()),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});
export type Consent = Static<typeof Consent>;
export const ConsentList = Type.Object({ consents: Type.Array(Consent) });
export type ConsentList = Static<typeof ConsentList>;

/** `POST /api/oauth/site/users/:id/revoke-tokens`: how many tokens ended. */
export const RevokedTokens = Type.Object({ revoked: Type.Number() });
export type RevokedTokens = Static<typeof RevokedTokens>;
