import { Elysia, t } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import { ForwardAuthTestResult } from "../../contract/api/forward-auth.ts";
import { CONFIG_READ } from "../../contract/scopes.ts";
import type { AppContext } from "../../context/context.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { testRule } from "./rule-test.service.ts";

const TestBody = t.Object({
  url: t.String({ maxLength: 8192 }),
  method: t.Optional(t.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$" })),
  user_id: t.Optional(t.String({ maxLength: 128 })),
});

/** "Test this rule" (issue 45): what the check would answer, for admins; it reads and changes nothing, so reading the config suffices. */
export function forwardAuthTestRoutes(ctx: AppContext) {
  return new Elysia({ name: "forward-auth-test-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .post("/api/oauth/admin/forward-auth/test", async ({ body }) => await testRule(ctx, body), {
      auth: { admin: true, scope: CONFIG_READ },
      parse: "json",
      body: TestBody,
      response: ForwardAuthTestResult,
    });
}
