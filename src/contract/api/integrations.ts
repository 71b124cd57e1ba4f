import { type Static, Type } from "@sinclair/typebox";
import { CreatedApp } from "./apps.ts";
import { oneOf, orNull } from "./common.ts";
import { ASKS, ENTRY_AUTH_METHODS, INTEGRATION_KINDS, JWKS_CHOICES, PROXY_KINDS } from "./integration-lists.ts";

/**
 * The integration catalog (`GET /api/integrations`), registering an app from one of its entries,
 * the app's setup snippet, and the report of a test sign-in run as the app would.
 */

/**
 * One application of the catalog (`catalog/<id>.yaml`). A `forward_auth` entry registers no app:
 * it writes a reverse proxy's configuration (`POST /api/oauth/admin/forward-auth/snippet`), so its
 * OpenID Connect fields are empty (`ask` is `base_url`: the protected app's address).
 */
export const Integration = Type.Object({
  id: Type.String(),
  kind: oneOf(INTEGRATION_KINDS),
  /** For `forward_auth`: the proxy whose configuration it writes; null for `oidc`. */
  proxy: orNull(oneOf(PROXY_KINDS)),
  name: Type.String(),
  category: Type.String(),
  description: Type.String(),
  docs_url: Type.String(),
  ask: oneOf(ASKS),
  /** For `ask: base_url`: the field's label and an example value. */
  base_url_label: orNull(Type.String()),
  base_url_example: orNull(Type.String()),
  /** `{{base_url}}…` paths, `{{redirect_uri}}`, or fixed URLs (the app's own cloud callback). */
  redirect_uris: Type.Array(Type.String()),
  post_logout_redirect_uris: Type.Array(Type.String()),
  token_endpoint_auth_method: oneOf(ENTRY_AUTH_METHODS),
  id_token_signed_response_alg: Type.String(),
  jwks: oneOf(JWKS_CHOICES),
  scopes: Type.Array(Type.String()),
  /** The claims the app reads (shown first in a test login's report). */
  claims_used: Type.Array(Type.String()),
  snippet: Type.Object({ title: Type.String(), language: Type.String(), text: Type.String() }),
  notes: Type.String(),
});
export type Integration = Static<typeof Integration>;
export const IntegrationList = Type.Object({ integrations: Type.Array(Integration) });
export type IntegrationList = Static<typeof IntegrationList>;

/** `POST /api/oauth/admin/forward-auth/snippet`: a reverse proxy's configuration protecting one app. */
export const ProxySnippet = Type.Object({ title: Type.String(), language: Type.String(), text: Type.String() });
export type ProxySnippet = Static<typeof ProxySnippet>;

/** What to paste into the app, with the real values. */
export const Setup = Type.Object({
  integration: Type.Object({ id: Type.String(), name: Type.String(), docs_url: Type.String() }),
  /** Every placeholder's value (integration-lists.ts PLACEHOLDERS). */
  values: Type.Record(Type.String(), Type.String()),
  title: Type.String(),
  language: Type.String(),
  text: Type.String(),
  notes: Type.String(),
});
export type Setup = Static<typeof Setup>;

/** `POST /api/oauth/me/integrations/:id` (201): the app, its secret this once (also inside the snippet), its setup. */
export const RegisteredIntegration = Type.Object({ ...CreatedApp.properties, setup: Setup });
export type RegisteredIntegration = Static<typeof RegisteredIntegration>;

/** `POST /api/oauth/me/clients/:clientId/test-login`: each step, and what the app was given. */
export const TestLoginReport = Type.Object({
  ok: Type.Boolean(),
  steps: Type.Array(Type.Object({ step: Type.String(), ok: Type.Boolean(), detail: Type.String() })),
  id_token: orNull(
    Type.Object({
      alg: Type.String(),
      kid: orNull(Type.String()),
      jwks_uri: Type.String(),
      claims: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  userinfo: orNull(Type.Record(Type.String(), Type.Unknown())),
  claims_used: Type.Array(Type.Object({ name: Type.String(), value: Type.Unknown() })),
});
export type TestLoginReport = Static<typeof TestLoginReport>;
