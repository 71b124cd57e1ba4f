import { Elysia } from "elysia";
import { CONFIG_READ, CONFIG_WRITE } from "../../contract/scopes.ts";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { audit, listAudit } from "../audit/audit.service.ts";
import { AdminUserPatch, AuditQuery, InviteBody, SiteConfigPatch, UserSearchQuery } from "./admin.schemas.ts";
import { createInvite, deleteInvite, listInvites } from "../invites/invites.service.ts";
import { checkedSiteConfigPatch, siteConfigView, updateSiteConfig } from "../site-config/site-config.ts";
import { updateUserAsAdmin } from "./users-admin.service.ts";
import { searchUsers } from "./users-search.service.ts";
import { deleteUser } from "./delete-user.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { AdminUserAnswer, AuditEntries, CreatedInvite, InviteList, SiteConfigAnswer, UserPage } from "../../contract/api/admin.ts";

/**
 * Site administration (`/api/oauth/admin`): admins only; tokens also need the admin scope, or its
 * site-tier equivalent (spec 1 section 2.3 rule 9: `site:user:*`, `site:config:*`).
 */
export function adminRoutes(ctx: AppContext) {
  return new Elysia({ name: "admin-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/admin/users", ({ query }) => searchUsers(ctx, query), {
      auth: { admin: true, scope: ["admin:users:read", "site:user:read"] },
      query: UserSearchQuery,
      response: UserPage,
    })
    .patch("/api/oauth/admin/users/:id", async ({ principal, params, body }) => ({ user: await updateUserAsAdmin(ctx, principal.user.id, params.id, body) }), {
      auth: { admin: true, scope: ["admin:users:write", "site:user:write"] },
      parse: "json",
      body: AdminUserPatch,
      response: AdminUserAnswer,
    })
    .delete(
      "/api/oauth/admin/users/:id",
      async ({ principal, params }) => {
        await deleteUser(ctx, params.id, { kind: "admin", adminId: principal.user.id });
        return { ok: true };
      },
      { auth: { admin: true, scope: ["admin:users:delete", "site:user:delete"] }, response: Ok },
    )
    .get("/api/oauth/admin/invites", async () => ({ invites: await listInvites(ctx) }), {
      auth: { admin: true, scope: "admin:invites:read" },
      response: InviteList,
    })
    .post(
      "/api/oauth/admin/invites",
      ({ principal, body, set }) => {
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return createInvite(ctx, principal.user.id, body);
      },
      { auth: { admin: true, scope: "admin:invites:create" }, parse: "json", body: InviteBody, response: { 201: CreatedInvite } },
    )
    .delete(
      "/api/oauth/admin/invites/:id",
      async ({ principal, params }) => {
        await deleteInvite(ctx, principal.user.id, params.id);
        return { ok: true };
      },
      { auth: { admin: true, scope: "admin:invites:delete" }, response: Ok },
    )
    .get("/api/oauth/admin/config", async () => ({ config: await siteConfigView(ctx) }), {
      auth: { admin: true, scope: CONFIG_READ },
      response: SiteConfigAnswer,
    })
    .patch(
      "/api/oauth/admin/config",
      async ({ principal, body }) => {
        await updateSiteConfig(ctx, checkedSiteConfigPatch(body));
        // The secret never reaches the audit log: only that it changed.
        const { captcha_secret, ...details } = body;
        await audit(ctx, {
          actorUserId: principal.user.id,
          action: "admin.config_updated",
          details: { ...details, ...(captcha_secret === undefined ? {} : { captcha_secret: "(changed)" }) },
        });
        return { config: await siteConfigView(ctx) };
      },
      { auth: { admin: true, scope: CONFIG_WRITE }, parse: "json", body: SiteConfigPatch, response: SiteConfigAnswer },
    )
    .get("/api/oauth/admin/audit", async ({ query }) => ({ entries: await listAudit(ctx, query) }), {
      auth: { admin: true, scope: CONFIG_READ },
      query: AuditQuery,
      response: AuditEntries,
    });
}
