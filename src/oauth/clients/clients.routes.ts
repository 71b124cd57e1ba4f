import { Elysia } from "elysia";
import { CONFIG_WRITE } from "../../contract/scopes.ts";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { missing } from "../../identity/users/identity.errors.ts";
import { ClientBody, VerifyBody } from "./clients.schemas.ts";
import { canRegisterVerified } from "./clients.policy.ts";
import { clientView, createClient, deleteClient, findClient, listOwnedClients, ownedClient, rotateClientSecret, updateClient } from "./clients.service.ts";
import { type ClientRow, oauthClients } from "./clients.table.ts";
import { eq } from "drizzle-orm";
import { errorStyle } from "../../shared/error-style.ts";
import { App, AppList, CreatedApp, RotatedSecret } from "../../contract/api/apps.ts";
import { Ok } from "../../contract/api/common.ts";

/** "My apps" (`/api/oauth/me/clients`) and the admin's verified mark. */
export function clientsRoutes(ctx: AppContext) {
  return new Elysia({ name: "clients-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/clients", async ({ principal }) => ({ clients: (await listOwnedClients(ctx, principal.user.id)).map(clientView) }), {
      auth: { scope: "apps:read" },
      response: AppList,
    })
    .post(
      "/api/oauth/me/clients",
      async ({ principal, body, set }) => {
        const { client, secret } = await createClient(ctx, principal.user.id, body, { verified: canRegisterVerified(principal) });
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { ...clientView(client), ...(secret ? { client_secret: secret } : {}) };
      },
      { auth: { scope: "apps:write" }, parse: "json", body: ClientBody, response: { 201: CreatedApp } },
    )
    .get("/api/oauth/me/clients/:clientId", async ({ principal, params }) => clientView(await ownedClient(ctx, principal.user.id, params.clientId)), {
      auth: { scope: "apps:read" },
      response: App,
    })
    .patch(
      "/api/oauth/me/clients/:clientId",
      async ({ principal, params, body }) => clientView(await updateClient(ctx, await ownedClient(ctx, principal.user.id, params.clientId), body)),
      {
        auth: { scope: "apps:write" },
        parse: "json",
        body: ClientBody,
        response: App,
      },
    )
    .delete(
      "/api/oauth/me/clients/:clientId",
      async ({ principal, params }) => {
        await deleteClient(ctx, await ownedClient(ctx, principal.user.id, params.clientId));
        return { ok: true };
      },
      { auth: { scope: "apps:write" }, response: Ok },
    )
    .post(
      "/api/oauth/me/clients/:clientId/secret",
      async ({ principal, params, set }) => {
        set.headers["cache-control"] = "no-store";
        return { client_secret: await rotateClientSecret(ctx, await ownedClient(ctx, principal.user.id, params.clientId)) };
      },
      { auth: { scope: "apps:write" }, response: RotatedSecret },
    )
    .patch(
      "/api/oauth/admin/clients/:clientId",
      async ({ principal, params, body }) => {
        if (!(await findClient(ctx, params.clientId))) throw missing("App");
        await ctx.db.update(oauthClients).set({ isVerified: body.is_verified }).where(eq(oauthClients.clientId, params.clientId)).run();
        await audit(ctx, { actorUserId: principal.user.id, action: "client.verified", details: { client_id: params.clientId, is_verified: body.is_verified } });
        return clientView((await findClient(ctx, params.clientId)) as ClientRow);
      },
      { auth: { admin: true, scope: CONFIG_WRITE }, parse: "json", body: VerifyBody, response: App },
    );
}
