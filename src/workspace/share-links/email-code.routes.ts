import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { EmailCodeGrant, EmailCodeRequested } from "../../contract/api/workspace-mail.ts";
import { requestEmailCode, verifyEmailCode } from "./email-code.service.ts";

/** Issue 44: a link with `requireEmailCode` opens for a listed address once a code mailed to it is entered. No session. */
export function emailCodeRoutes(ctx: AppContext) {
  const TokenParams = t.Object({ token: t.String({ maxLength: 200 }) });
  const Email = t.String({ maxLength: 320 });
  return new Elysia({ name: "share-email-code-routes" })
    .post(
      "/api/shared/:token/email-code",
      async ({ params, body, set }) => {
        const answer = await requestEmailCode(ctx, params.token, body.email);
        set.status = 202;
        return answer;
      },
      { params: TokenParams, parse: "json", body: t.Object({ email: Email }), response: { 202: EmailCodeRequested } },
    )
    .post("/api/shared/:token/email-code/verify", ({ params, body }) => verifyEmailCode(ctx, params.token, body.email, body.code), {
      params: TokenParams,
      parse: "json",
      body: t.Object({ email: Email, code: t.String({ maxLength: 20 }) }),
      response: EmailCodeGrant,
    });
}
