import { Elysia, t } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { addDomain, domainView, listDomains, removeDomain, verifyDomain } from "./domains.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { DomainAnswer, DomainList } from "../../contract/api/accounts.ts";

/** The user's custom domains (`/api/oauth/me/domains`; `domains:read`, `domains:write`). */
export function domainsRoutes(ctx: AppContext) {
  return new Elysia({ name: "domains-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/domains", async ({ principal }) => ({ domains: (await listDomains(ctx, principal.user.id)).map(domainView) }), {
      auth: { scope: "domains:read" },
      response: DomainList,
    })
    .post(
      "/api/oauth/me/domains",
      async ({ principal, body, set }) => {
        set.status = 201;
        return { domain: domainView(await addDomain(ctx, principal.user.id, body.domain)) };
      },
      { auth: { scope: "domains:write" }, parse: "json", body: t.Object({ domain: t.String({ maxLength: 300 }) }), response: { 201: DomainAnswer } },
    )
    .post(
      "/api/oauth/me/domains/:id/verify",
      async ({ principal, params }) => ({ domain: domainView(await verifyDomain(ctx, principal.user.id, params.id)) }),
      { auth: { scope: "domains:write" }, response: DomainAnswer },
    )
    .delete(
      "/api/oauth/me/domains/:id",
      async ({ principal, params }) => {
        await removeDomain(ctx, principal.user.id, params.id);
        return { ok: true };
      },
      { auth: { scope: "domains:write" }, response: Ok },
    );
}
