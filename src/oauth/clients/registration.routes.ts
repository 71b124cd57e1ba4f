import { Elysia, t } from "elysia";
import { assertOrigin } from "../../access/csrf.ts";
import { resolvePrincipal } from "../../access/access.context.ts";
import { unsupportedMediaType } from "../protocol/oauth.errors.ts";
import type { AppContext } from "../../context/context.ts";
import { insufficientScope, notSignedIn } from "../../access/access.errors.ts";
import { clientForRegistrationToken, deleteRegistration, readRegistration, registerClient, replaceRegistration } from "./registration.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { NoContent } from "../../contract/api/common.ts";
import { ClientInformation } from "../../contract/api/registration.ts";

const Metadata = t.Object({
  client_id: t.Optional(t.String({ maxLength: 64 })),
  client_name: t.Optional(t.String({ maxLength: 200 })),
  redirect_uris: t.Optional(t.Array(t.String({ maxLength: 2048 }), { maxItems: 20 })),
  scope: t.Optional(t.String({ maxLength: 4096 })),
  token_endpoint_auth_method: t.Optional(t.String({ maxLength: 64 })),
  grant_types: t.Optional(t.Array(t.String({ maxLength: 128 }), { maxItems: 10 })),
  response_types: t.Optional(t.Array(t.String({ maxLength: 32 }), { maxItems: 5 })),
  jwks: t.Optional(t.Object({ keys: t.Array(t.Record(t.String(), t.Unknown()), { maxItems: 10 }) })),
  jwks_uri: t.Optional(t.String({ maxLength: 2048 })),
  id_token_signed_response_alg: t.Optional(t.String({ maxLength: 32 })),
  post_logout_redirect_uris: t.Optional(t.Array(t.String({ maxLength: 2048 }), { maxItems: 20 })),
  backchannel_logout_uri: t.Optional(t.String({ maxLength: 2048 })),
  dpop_bound_access_tokens: t.Optional(t.Boolean()),
  require_pushed_authorization_requests: t.Optional(t.Boolean()),
});

/** RFC 7591 section 3.1: the metadata is a JSON document. A form or text body (what a cross-site page can send) is refused. */
function assertJsonBody(request: Request): void {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw unsupportedMediaType("Content-Type must be application/json.");
}

/** RFC 7591 registration and RFC 7592 management (`/api/oauth/register`). */
export function registrationRoutes(ctx: AppContext) {
  return new Elysia({ name: "registration-routes", detail: errorStyle("rfc7591") })
    .onBeforeHandle(({ request }) => {
      if (request.method === "POST" || request.method === "PUT") assertJsonBody(request);
    })
    .post(
      "/api/oauth/register",
      async ({ request, body, set }) => {
        // Spec 1 section 5 rule 5: the initial access token is a session token or a PAT with apps:write.
        const principal = await resolvePrincipal(ctx, request);
        if (!principal || principal.kind === "access_token")
          throw notSignedIn("Send a session token or a personal access token with apps:write as Bearer.", ctx.config.issuer);
        // A session cookie rides along with cross-site requests: then the write must come from our pages.
        if (principal.kind === "session" && principal.viaCookie) assertOrigin(ctx.config, request, "cookie-write");
        if (principal.kind === "pat" && !principal.scopes.includes("apps:write")) throw insufficientScope("apps:write", ctx.config.issuer);
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return registerClient(ctx, principal.user.id, body);
      },
      { parse: "json", body: Metadata, response: { 201: ClientInformation } },
    )
    .get(
      "/api/oauth/register/:clientId",
      async ({ request, params, set }) => {
        set.headers["cache-control"] = "no-store";
        return readRegistration(ctx, await clientForRegistrationToken(ctx, params.clientId, request.headers.get("authorization")));
      },
      { response: ClientInformation },
    )
    .put(
      "/api/oauth/register/:clientId",
      async ({ request, params, body, set }) => {
        set.headers["cache-control"] = "no-store";
        return replaceRegistration(ctx, await clientForRegistrationToken(ctx, params.clientId, request.headers.get("authorization")), body);
      },
      { parse: "json", body: Metadata, response: ClientInformation },
    )
    .delete(
      "/api/oauth/register/:clientId",
      async ({ request, params }) => {
        await deleteRegistration(ctx, await clientForRegistrationToken(ctx, params.clientId, request.headers.get("authorization")));
        return new Response(null, { status: 204 });
      },
      { response: { 204: NoContent } },
    );
}
