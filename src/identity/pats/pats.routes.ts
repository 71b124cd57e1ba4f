import { Elysia } from "elysia";
import { authPlugin, sessionOf } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { PatCreateBody } from "./pats.schemas.ts";
import { createPat, listPats, revokePat } from "./pats.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { AccessTokenList, CreatedAccessToken } from "../../contract/api/accounts.ts";

/** Personal access tokens (session only: a token cannot mint tokens). */
export function patsRoutes(ctx: AppContext) {
  return new Elysia({ name: "pats-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/tokens", async ({ principal }) => ({ tokens: await listPats(ctx, principal.user.id) }), {
      auth: { session: true },
      response: AccessTokenList,
    })
    .post(
      "/api/oauth/me/tokens",
      async ({ principal, body, set }) => {
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return await createPat(ctx, principal.user, body, sessionOf(principal).session);
      },
      { auth: { session: true }, parse: "json", body: PatCreateBody, response: { 201: CreatedAccessToken } },
    )
    .delete(
      "/api/oauth/me/tokens/:id",
      async ({ principal, params }) => {
        await revokePat(ctx, principal.user.id, params.id);
        return { ok: true };
      },
      { auth: { session: true }, response: Ok },
    );
}
