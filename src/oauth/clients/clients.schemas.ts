import { t } from "elysia";

const RedirectEntry = t.Object({ uri: t.String({ maxLength: 2048 }), match: t.Optional(t.String({ maxLength: 16 })) });
const Jwks = t.Object({ keys: t.Array(t.Record(t.String(), t.Unknown()), { maxItems: 10 }) });

/** Dashboard registration and update (ARCHITECTURE section 4): every field optional on update. */
export const ClientBody = t.Object({
  name: t.Optional(t.String({ maxLength: 200 })),
  description: t.Optional(t.String({ maxLength: 1000 })),
  redirect_uris: t.Optional(t.Array(RedirectEntry, { maxItems: 20 })),
  public: t.Optional(t.Boolean()),
  token_endpoint_auth_method: t.Optional(t.String({ maxLength: 64 })),
  grant_types: t.Optional(t.Array(t.String({ maxLength: 128 }), { maxItems: 10 })),
  jwks: t.Optional(t.Union([Jwks, t.Null()])),
  jwks_uri: t.Optional(t.Union([t.String({ maxLength: 2048 }), t.Null()])),
  id_token_signed_response_alg: t.Optional(t.String({ maxLength: 32 })),
  post_logout_redirect_uris: t.Optional(t.Array(t.String({ maxLength: 2048 }), { maxItems: 20 })),
  backchannel_logout_uri: t.Optional(t.Union([t.String({ maxLength: 2048 }), t.Null()])),
  oidc_fields: t.Optional(t.Array(t.String({ maxLength: 32 }), { maxItems: 10 })),
  scopes: t.Optional(t.Array(t.String({ maxLength: 128 }), { maxItems: 64 })),
  dpop_bound_access_tokens: t.Optional(t.Boolean()),
  require_pushed_authorization_requests: t.Optional(t.Boolean()),
  client_credentials_scopes: t.Optional(t.Array(t.String({ maxLength: 64 }), { maxItems: 20 })),
});

export const VerifyBody = t.Object({ is_verified: t.Boolean() });
