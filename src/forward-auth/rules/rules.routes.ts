import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import { Ok } from "../../contract/api/common.ts";
import { ForwardAuthRuleAnswer, ForwardAuthRuleList } from "../../contract/api/forward-auth.ts";
import { CONFIG_READ, CONFIG_WRITE } from "../../contract/scopes.ts";
import type { AppContext } from "../../context/context.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { CreateRuleBody, PatchRuleBody } from "./rules.schemas.ts";
import { createRule, deleteRule, listRules, updateRule } from "./rules.service.ts";

/**
 * Forward auth's rules (issue 45), managed by admins: the instance's configuration, so a token
 * needs `admin:config:*` or the site tier's `site:config:*`, like the other settings.
 */
export function forwardAuthRulesRoutes(ctx: AppContext) {
  return new Elysia({ name: "forward-auth-rules-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/admin/forward-auth/rules", async () => ({ rules: await listRules(ctx) }), {
      auth: { admin: true, scope: CONFIG_READ },
      response: ForwardAuthRuleList,
    })
    .post(
      "/api/oauth/admin/forward-auth/rules",
      async ({ principal, body, set }) => {
        set.status = 201;
        return { rule: await createRule(ctx, principal.user.id, body) };
      },
      { auth: { admin: true, scope: CONFIG_WRITE }, parse: "json", body: CreateRuleBody, response: { 201: ForwardAuthRuleAnswer } },
    )
    .patch(
      "/api/oauth/admin/forward-auth/rules/:id",
      async ({ principal, params, body }) => ({ rule: await updateRule(ctx, principal.user.id, params.id, body) }),
      {
        auth: { admin: true, scope: CONFIG_WRITE },
        parse: "json",
        body: PatchRuleBody,
        response: ForwardAuthRuleAnswer,
      },
    )
    .delete(
      "/api/oauth/admin/forward-auth/rules/:id",
      async ({ principal, params }) => {
        await deleteRule(ctx, principal.user.id, params.id);
        return { ok: true as const };
      },
      { auth: { admin: true, scope: CONFIG_WRITE }, response: Ok },
    );
}
