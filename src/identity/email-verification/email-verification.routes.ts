import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import { assertOrigin } from "../../access/csrf.ts";
import { Ok } from "../../contract/api/common.ts";
import type { AppContext } from "../../context/context.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { ConfirmEmailBody } from "./email-verification.schemas.ts";
import { confirmEmail, resendVerificationLink } from "./email-verification.service.ts";

/** Verified addresses (ARCHITECTURE section 4b, issue 44): the mailed link's confirmation, and "Resend". */
export function emailVerificationRoutes(ctx: AppContext) {
  return new Elysia({ name: "email-verification-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .post(
      "/api/auth/email/confirm",
      async ({ request, body, set }) => {
        // As the rest of the sign-in API: never a form posted from another site. The link may be opened signed out.
        assertOrigin(ctx.config, request, "not-foreign");
        await confirmEmail(ctx, body.token);
        set.headers["cache-control"] = "no-store";
        return { ok: true as const };
      },
      { parse: "json", body: ConfirmEmailBody, response: Ok },
    )
    .post(
      "/api/oauth/me/email/verification",
      async ({ principal, set }) => {
        await resendVerificationLink(ctx, principal.user);
        set.status = 202;
        return { ok: true as const };
      },
      // The account page's button: a session, never an app's token (mail to someone is not an app's to send).
      { auth: { session: true }, response: { 202: Ok } },
    );
}
