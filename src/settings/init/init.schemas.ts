import { t } from "elysia";

export const AppConfigPatchSchema = t.Object({
  idp_base_url: t.Optional(t.String({ maxLength: 2048 })),
  idp_client_id: t.Optional(t.String({ maxLength: 256 })),
  idp_client_secret: t.Optional(t.String({ maxLength: 1024 })),
  idp_redirect_uri: t.Optional(t.String({ maxLength: 2048 })),
  use_pkce: t.Optional(t.Boolean()),
  allowed_team_id: t.Optional(t.String({ maxLength: 128 })),
  owner_team_id: t.Optional(t.String({ maxLength: 4096 })),
});

export const SetupBodySchema = t.Optional(t.Object({ config: t.Optional(AppConfigPatchSchema) }));
