import { Elysia } from "elysia";
import { authPlugin } from "../access/access.plugin.ts";
import { Ok } from "../contract/api/common.ts";
import { MailStatus } from "../contract/api/mail.ts";
import { CONFIG_READ } from "../contract/scopes.ts";
import type { AppContext } from "../context/context.ts";
import { errorStyle } from "../shared/error-style.ts";
import { TestMailBody } from "./mail-admin.schemas.ts";
import { mailStatus, sendTestMail } from "./mail-admin.service.ts";

/** The admin page's Mail section (issue 44): how mail is set up, the outbox, and a test message. */
export function mailAdminRoutes(ctx: AppContext) {
  return new Elysia({ name: "mail-admin-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/admin/mail", () => mailStatus(ctx), { auth: { admin: true, scope: CONFIG_READ }, response: MailStatus })
    .post(
      "/api/oauth/admin/mail/test",
      async ({ principal, body, set }) => {
        await sendTestMail(ctx, principal.user, body.to);
        set.status = 202;
        return { ok: true as const };
      },
      // Mail to any address the admin types: an admin's own session, not an app's token.
      { auth: { admin: true, session: true }, parse: "json", body: TestMailBody, response: { 202: Ok } },
    );
}
