import { Elysia, t } from "elysia";
import { authPlugin } from "../access/access.plugin.ts";
import type { AppContext } from "../context/context.ts";
import { missing } from "../identity/users/identity.errors.ts";
import { errorStyle } from "../shared/error-style.ts";
import { IntegrationList, ProxySnippet, RegisteredIntegration, Setup, TestLoginReport } from "../contract/api/integrations.ts";
import { oneOf } from "../contract/api/common.ts";
import { PROXY_KINDS } from "../contract/api/integration-lists.ts";
import { CONFIG_READ } from "../contract/scopes.ts";
import { ownedClient } from "../oauth/clients/clients.service.ts";
import { canRegisterVerified } from "../oauth/clients/clients.policy.ts";
import { integrations } from "./catalog.ts";
import { forwardAuthSnippet, registerFromCatalog, setupOf } from "./integrations.service.ts";
import { type InProcess, testLogin } from "./test-login.ts";

const Answer = t.Object({
  name: t.Optional(t.String({ maxLength: 200 })),
  base_url: t.Optional(t.String({ maxLength: 2048 })),
  redirect_uri: t.Optional(t.String({ maxLength: 2048 })),
});

const SnippetAsk = t.Object({ kind: oneOf(PROXY_KINDS), app_url: t.String({ maxLength: 2048 }), upstream: t.String({ maxLength: 2048 }) });

/**
 * The integration catalog: its entries, registering an app from one, the app's setup snippet, and
 * a test sign-in run as the app would. `handle` answers a request in this process (the test login
 * talks to the real endpoints without leaving it).
 */
export function integrationsRoutes(ctx: AppContext, handle: InProcess) {
  return (
    new Elysia({ name: "integrations-routes", detail: errorStyle("rfc6749") })
      .use(authPlugin(ctx))
      // The catalog is public and outside the identity API: the spec's error shape.
      .get("/api/integrations", () => ({ integrations: integrations() }), { detail: errorStyle("spec"), response: IntegrationList })
      .post(
        "/api/oauth/me/integrations/:id",
        async ({ principal, params, body, set }) => {
          const created = await registerFromCatalog(ctx, { ownerUserId: principal.user.id, verified: canRegisterVerified(principal) }, params.id, body);
          set.status = 201;
          set.headers["cache-control"] = "no-store";
          return created;
        },
        { auth: { scope: "apps:write" }, parse: "json", body: Answer, response: { 201: RegisteredIntegration } },
      )
      .get(
        "/api/oauth/me/clients/:clientId/setup",
        async ({ principal, params }) => {
          const setup = setupOf(ctx, await ownedClient(ctx, principal.user.id, params.clientId), null);
          if (!setup) throw missing("Setup for this app (it was not registered from the catalog)");
          return setup;
        },
        { auth: { scope: "apps:read" }, response: Setup },
      )
      .post(
        "/api/oauth/me/clients/:clientId/test-login",
        async ({ principal, params, body, request, set }) => {
          set.headers["cache-control"] = "no-store";
          const client = await ownedClient(ctx, principal.user.id, params.clientId);
          return testLogin(ctx, handle, { client, userId: principal.user.id, cookie: request.headers.get("cookie") ?? "", secret: body.client_secret ?? null });
        },
        {
          auth: { session: true },
          parse: "json",
          body: t.Object({ client_secret: t.Optional(t.String({ maxLength: 200 })) }),
          response: TestLoginReport,
        },
      )
      // The catalog's forward-auth entries: the proxy's configuration for one app (it changes nothing).
      .post("/api/oauth/admin/forward-auth/snippet", ({ body }) => forwardAuthSnippet(ctx, body), {
        auth: { admin: true, scope: CONFIG_READ },
        parse: "json",
        body: SnippetAsk,
        response: ProxySnippet,
      })
  );
}
