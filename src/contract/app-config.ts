/** The app config of spec 3 section 2.1, as the API shows it (the secret always ""). */
export type AppConfig = {
  idp_base_url: string;
  idp_client_id: string;
  idp_client_secret: string;
  idp_redirect_uri: string;
  use_pkce: boolean;
  allowed_team_id: string;
  owner_team_id: string;
};
