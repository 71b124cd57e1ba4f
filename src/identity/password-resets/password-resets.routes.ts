import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import { assertOrigin } from "../../access/csrf.ts";
import { Ok } from "../../contract/api/common.ts";
import { ResetLink } from "../../contract/api/password-resets.ts";
import type { AppContext } from "../../context/context.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { clientIp } from "../../access/client-info.ts";
import { requestOrigin } from "../notices/notice-origin.ts";
import { requestPasswordReset } from "./forgot-password.service.ts";
import { ForgotPasswordBody, ResetPasswordBody } from "./password-resets.schemas.ts";
import { createResetLink, resetPasswordWithLink } from "./password-resets.service.ts";

/**
 * Password reset links (ARCHITECTURE section 4b): an administrator makes one, or the person asks
 * for one by email ("Forgot password?"); they open it (`/reset-password?token=`) and set a new password.
 */
export function passwordResetsRoutes(ctx: AppContext) {
  return new Elysia({ name: "password-resets-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .post(
      "/api/oauth/admin/users/:id/reset-link",
      async ({ principal, params, set }) => {
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return await createResetLink(ctx, principal.user.id, params.id);
      },
      // A link takes over any account, an administrator's too: an admin's own session only, never an app's token.
      { auth: { admin: true, session: true }, response: { 201: ResetLink } },
    )
    .post(
      "/api/auth/password/forgot",
      async ({ request, server, body, set }) => {
        // As the rest of the sign-in API: never a form posted from another site.
        assertOrigin(ctx.config, request, "not-foreign");
        const result = await requestPasswordReset(ctx, body.login, { ip: clientIp(request, server, ctx.config.trustProxy) });
        ctx.log.debug("password reset requested", { result });
        // ARCHITECTURE section 4b: the same answer whether or not the account exists.
        set.status = 202;
        set.headers["cache-control"] = "no-store";
        return { ok: true as const };
      },
      { parse: "json", body: ForgotPasswordBody, response: { 202: Ok } },
    )
    .post(
      "/api/auth/password/reset",
      async ({ request, server, body, set }) => {
        assertOrigin(ctx.config, request, "not-foreign");
        await resetPasswordWithLink(ctx, body, requestOrigin(ctx, request, server));
        set.headers["cache-control"] = "no-store";
        return { ok: true as const };
      },
      { parse: "json", body: ResetPasswordBody, response: Ok },
    );
}
