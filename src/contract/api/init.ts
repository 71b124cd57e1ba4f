import { type Static, Type } from "@sinclair/typebox";

// Spec 3 section 4.1: the app config and first-run setup (`/api/init`).

/** Spec 3 section 2.1, as the API shows it (the secret always ""). */
export const AppConfig = Type.Object({
  idp_base_url: Type.String(),
  idp_client_id: Type.String(),
  idp_client_secret: Type.String(),
  idp_redirect_uri: Type.String(),
  use_pkce: Type.Boolean(),
  allowed_team_id: Type.String(),
  owner_team_id: Type.String(),
});
export type AppConfig = Static<typeof AppConfig>;

/** Spec 3 section 2.2. */
export const Branding = Type.Object({ site_name: Type.String(), site_logo_url: Type.String() });
export type Branding = Static<typeof Branding>;

export const InitStatus = Type.Object({ configured: Type.Boolean() });
export type InitStatus = Static<typeof InitStatus>;
export const ConfigAnswer = Type.Object({ config: AppConfig });
export type ConfigAnswer = Static<typeof ConfigAnswer>;
