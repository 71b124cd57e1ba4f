import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { missing } from "../../identity/users/identity.errors.ts";
import { listConsents, revokeConsent } from "./consents.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { ConsentList } from "../../contract/api/authorization.ts";
import { Ok } from "../../contract/api/common.ts";

/** Authorized apps (`/api/oauth/me/consents`): what the user allowed, and taking it back. */
export function consentsRoutes(ctx: AppContext) {
  return new Elysia({ name: "consents-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/consents", async ({ principal }) => ({ consents: await listConsents(ctx, principal.user.id) }), {
      auth: { session: true },
      response: ConsentList,
    })
    .delete(
      "/api/oauth/me/consents/:clientId",
      async ({ principal, params }) => {
        if (!(await revokeConsent(ctx, principal.user.id, params.clientId))) throw missing("Authorized app");
        await audit(ctx, { actorUserId: principal.user.id, action: "consent.revoked", details: { client_id: params.clientId } });
        return { ok: true };
      },
      { auth: { session: true }, response: Ok },
    );
}
