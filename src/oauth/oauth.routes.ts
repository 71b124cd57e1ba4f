import { Elysia, t } from "elysia";
import { authPlugin, sessionOf, type SessionPrincipal } from "../auth/auth.plugin.ts";
import { resolvePrincipal } from "../auth/principal.ts";
import type { AppContext } from "../context.ts";
import { insufficientScope, notSignedIn } from "../identity/identity.errors.ts";
import { AppError } from "../shared/errors.ts";
import { findClient } from "./clients/clients.service.ts";
import { scopeClaims } from "./claims/claims.ts";
import { continueAuthorization, findInteraction } from "./endpoints/authorization.service.ts";
import { AuthorizeError, type AuthorizeRequest, redirectWith, validateAuthorizeRequest } from "./endpoints/authorize-request.ts";
import { protectedResourceMetadata, serverMetadata } from "./endpoints/discovery.ts";
import { authorizeErrorPage } from "./endpoints/error-page.ts";
import { parseForm } from "./endpoints/form.ts";
import { describeInteraction, submitDecision } from "./endpoints/interaction.service.ts";
import { introspect } from "./endpoints/introspect.ts";
import { jwksBody } from "./endpoints/jwks.ts";
import { revoke } from "./endpoints/revoke.ts";
import { tokenEndpoint } from "./endpoints/token.ts";
import { webfinger } from "./endpoints/webfinger.ts";

const JSON_TYPE = "application/json";
/** Browser apps (public clients with PKCE) call these endpoints from their own origin; no cookie is involved. */
const CORS = { "access-control-allow-origin": "*" };
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache", ...CORS };
const PREFLIGHT = new Response(null, {
  status: 204,
  headers: { ...CORS, "access-control-allow-methods": "GET, POST", "access-control-allow-headers": "Authorization, Content-Type, DPoP", "access-control-max-age": "600" },
});

/** The one table of every OAuth/OIDC path (ARCHITECTURE section 2). */
export function oauthRoutes(ctx: AppContext) {
  // Discovery documents never change while the process runs: serialized once, served from memory.
  const discovery = JSON.stringify(serverMetadata(ctx.config));
  const resource = JSON.stringify(protectedResourceMetadata(ctx.config));
  const cached = (body: string) => new Response(body, { headers: { "content-type": JSON_TYPE, "cache-control": "public, max-age=300", ...CORS } });
  const redirect = (url: string) => new Response(null, { status: 302, headers: { location: url, "cache-control": "no-store" } });
  const sessionFrom = async (request: Request) => {
    const principal = await resolvePrincipal(ctx, request);
    return principal?.kind === "session" ? principal : null;
  };

  const authorize = async (request: Request, params: URLSearchParams) => {
    const client = findClient(ctx, params.get("client_id") ?? "");
    let validated: AuthorizeRequest;
    try {
      validated = validateAuthorizeRequest(params, client).request;
    } catch (e) {
      if (!(e instanceof AuthorizeError)) throw e;
      if (!e.redirect) return authorizeErrorPage(e.error, e.description);
      const redirectUri = params.get("redirect_uri") as string;
      return redirect(redirectWith(redirectUri, ctx.config.issuer, { error: e.error, error_description: e.description, state: params.get("state") ?? undefined }));
    }
    return redirect(continueAuthorization(ctx, validated, await sessionFrom(request), null).url);
  };

  return new Elysia({ name: "oauth-routes" })
    .use(authPlugin(ctx))
    .get("/.well-known/openid-configuration", () => cached(discovery))
    .get("/.well-known/oauth-authorization-server", () => cached(discovery))
    .get("/.well-known/oauth-protected-resource", () => cached(resource))
    .get("/.well-known/jwks.json", async () => new Response(await jwksBody(ctx), { headers: { "content-type": "application/jwk-set+json", "cache-control": "public, max-age=300", ...CORS } }))
    .options("/api/oauth/:endpoint", ({ params }) => (["token", "userinfo", "revoke", "introspect"].includes(params.endpoint) ? PREFLIGHT.clone() : new Response(null, { status: 404 })))
    .get("/.well-known/webfinger", ({ request }) => webfinger(ctx, new URL(request.url).searchParams))
    .get("/api/oauth/authorize", ({ request }) => authorize(request, new URL(request.url).searchParams))
    .post("/api/oauth/authorize", ({ request, body }) => authorize(request, parseForm(request, body)), { parse: "text" })
    .get("/api/oauth/interaction/:id/resume", async ({ request, params }) => {
      const interaction = findInteraction(ctx, params.id);
      if (!interaction) return authorizeErrorPage("invalid_request", "this sign-in request has expired; start again from the application");
      try {
        return redirect(continueAuthorization(ctx, interaction.request as AuthorizeRequest, await sessionFrom(request), interaction).url);
      } catch (e) {
        // A person is at this URL, not the client: errors that cannot go back to it get a page.
        if (e instanceof AppError) return authorizeErrorPage(e.error, e.extra.description ?? e.error);
        throw e;
      }
    })
    .get("/api/oauth/interaction/:id", ({ principal, params }) => describeInteraction(ctx, params.id, sessionOf(principal)), { auth: { session: true } })
    .post("/api/oauth/interaction/:id", ({ principal, params, body }) => ({ redirect_to: submitDecision(ctx, params.id, principal as SessionPrincipal, body).url }), {
      auth: { session: true },
      parse: "json",
      body: t.Object({
        decision: t.Union([t.Literal("approve"), t.Literal("deny")]),
        team_id: t.Optional(t.String({ maxLength: 64 })),
        confirmation: t.Optional(t.String({ maxLength: 64 })),
      }),
    })
    .post("/api/oauth/token", async ({ request, body, set }) => {
      Object.assign(set.headers, NO_STORE);
      return tokenEndpoint(ctx, request.headers.get("authorization"), parseForm(request, body));
    }, { parse: "text" })
    .post("/api/oauth/introspect", async ({ request, body, set }) => {
      Object.assign(set.headers, NO_STORE);
      return introspect(ctx, request.headers.get("authorization"), parseForm(request, body));
    }, { parse: "text" })
    .post("/api/oauth/revoke", async ({ request, body }) => {
      await revoke(ctx, request.headers.get("authorization"), parseForm(request, body));
      return new Response(null, { status: 200, headers: NO_STORE });
    }, { parse: "text" })
    .all("/api/oauth/userinfo", async ({ request, set }) => {
      const principal = await resolvePrincipal(ctx, request);
      if (principal?.kind !== "access_token") throw notSignedIn("A valid access token is required.", ctx.config.issuer, request.headers.has("authorization"));
      if (!principal.scopes.includes("openid")) throw insufficientScope("openid", ctx.config.issuer);
      Object.assign(set.headers, NO_STORE);
      return { sub: principal.user.id, ...scopeClaims(ctx, principal.user, principal.scopes, []) };
    });
}
