import { Elysia } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { NameBody, PasskeyRegisterBody } from "./passkeys.schemas.ts";
import { deletePasskey, listPasskeys, passkeyRegistrationOptions, registerPasskey, renamePasskey } from "./passkeys.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { requestOrigin } from "../notices/notice-origin.ts";
import { Ok } from "../../contract/api/common.ts";
import { AddedPasskey, PasskeyCreationChallenge, PasskeyList } from "../../contract/api/accounts.ts";

/** The user's passkeys: several, named (session only). */
export function passkeysRoutes(ctx: AppContext) {
  return new Elysia({ name: "passkeys-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me/passkeys", async ({ principal }) => ({ passkeys: await listPasskeys(ctx, principal.user.id) }), {
      auth: { session: true },
      response: PasskeyList,
    })
    .post("/api/oauth/me/passkeys/options", ({ principal }) => passkeyRegistrationOptions(ctx, principal.user), {
      auth: { session: true },
      response: PasskeyCreationChallenge,
    })
    .post(
      "/api/oauth/me/passkeys",
      async ({ principal, body, request, server, set }) => {
        const passkey = await registerPasskey(ctx, principal.user, body as never, requestOrigin(ctx, request, server));
        set.status = 201;
        return { passkey };
      },
      { auth: { session: true }, parse: "json", body: PasskeyRegisterBody, response: { 201: AddedPasskey } },
    )
    .patch(
      "/api/oauth/me/passkeys/:id",
      async ({ principal, params, body }) => {
        await renamePasskey(ctx, principal.user.id, params.id, body.name);
        return { ok: true };
      },
      { auth: { session: true }, parse: "json", body: NameBody, response: Ok },
    )
    .delete(
      "/api/oauth/me/passkeys/:id",
      async ({ principal, params, request, server }) => {
        await deletePasskey(ctx, principal.user.id, params.id, requestOrigin(ctx, request, server));
        return { ok: true };
      },
      { auth: { session: true }, response: Ok },
    );
}
