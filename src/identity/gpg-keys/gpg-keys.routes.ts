import { Elysia, t } from "elysia";
import { authPlugin } from "../../access/access.plugin.ts";
import type { AppContext } from "../../context/context.ts";
import { addGpgKey, gpgKeyView, listGpgKeys, removeGpgKey } from "./gpg-keys.service.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { GpgKeyAnswer, GpgKeyList } from "../../contract/api/accounts.ts";

/** The user's OpenPGP public keys (`/api/oauth/me/gpg-keys`; `gpg:read`, `gpg:write`). */
export function gpgKeysRoutes(ctx: AppContext) {
  return new Elysia({ name: "gpg-keys-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get(
      "/api/oauth/me/gpg-keys",
      async ({ principal }) => ({ gpg_keys: (await listGpgKeys(ctx, principal.user.id)).map((k) => gpgKeyView(k, principal.user)) }),
      {
        auth: { scope: "gpg:read" },
        response: GpgKeyList,
      },
    )
    .post(
      "/api/oauth/me/gpg-keys",
      async ({ principal, body, set }) => {
        const key = await addGpgKey(ctx, principal.user, body.armored);
        set.status = 201;
        return { gpg_key: gpgKeyView(key, principal.user) };
      },
      { auth: { scope: "gpg:write" }, parse: "json", body: t.Object({ armored: t.String({ maxLength: 70_000 }) }), response: { 201: GpgKeyAnswer } },
    )
    .delete(
      "/api/oauth/me/gpg-keys/:id",
      async ({ principal, params }) => {
        await removeGpgKey(ctx, principal.user.id, params.id);
        return { ok: true };
      },
      { auth: { scope: "gpg:write" }, response: Ok },
    );
}
