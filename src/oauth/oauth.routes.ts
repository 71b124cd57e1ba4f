import { Elysia, t } from "elysia";
import { authPlugin, sessionOf } from "../access/access.plugin.ts";
import type { SessionPrincipal } from "../access/principal.ts";
import type { Server } from "bun";
import { clientIp } from "../access/client-info.ts";
import { resolvePrincipal } from "../access/access.context.ts";
import { startGuard } from "../access/start-guard.ts";
import { addressKey } from "../access/window-limit.ts";
import { busyPage } from "../shared/error-page.ts";
import { interactions } from "./endpoints/interactions.table.ts";
import type { AppContext } from "../context/context.ts";
import { insufficientScope, notSignedIn } from "../access/access.errors.ts";
import { AppError } from "../shared/errors.ts";
import { findClient, ownedClient } from "./clients/clients.service.ts";
import { deliveryLog } from "./logout/backchannel.service.ts";
import { listMachineTokens } from "./tokens/machine-tokens.service.ts";
import { userInfoClaims } from "./claims/claims.ts";
import { continueAuthorization, findInteraction } from "./endpoints/authorization.service.ts";
import { AuthorizeError, type AuthorizeRequest, redirectWith, validateAuthorizeRequest } from "./endpoints/authorize-request.ts";
import { protectedResourceMetadata, serverMetadata } from "./endpoints/discovery.ts";
import { authorizeErrorPage, logoutErrorPage } from "./endpoints/error-page.ts";
import { parseForm } from "./endpoints/form.ts";
import { describeInteraction, submitDecision } from "./endpoints/interaction.service.ts";
import { introspect } from "./endpoints/introspect.ts";
import { classicJwksBody, jwksBody } from "../keys/jwks.ts";
import { freshKeys } from "../keys/keystore.ts";
import { revoke } from "./endpoints/revoke.ts";
import { CORS_PATHS } from "./protocol/paths.ts";
import { tokenEndpoint } from "./endpoints/token.ts";
import { nonceHeader } from "./dpop/dpop.service.ts";
import { authorizationParams, pushRequest } from "./par/par.service.ts";
import { authenticateClient } from "./clients/authenticate-client.ts";
import { confirmationPath, LOGOUT_PAGE, type LogoutPlan, planLogout } from "./endpoints/end-session.ts";
import { revokeSession } from "../identity/sessions/sessions.service.ts";
import { signOutCookies } from "../identity/sessions/session-cookie.ts";
import { assertOrigin } from "../access/csrf.ts";
import { decideDeviceRequest, lookupDeviceRequest, startDeviceAuthorization } from "./device/device.service.ts";
import { deviceGuessBudget, deviceStartGuard } from "./device/device-limits.ts";
import { pushGuard } from "./par/par-limits.ts";
import { webfinger } from "./endpoints/webfinger.ts";
import { CORS, NO_STORE, PREFLIGHT } from "./endpoints/cors.ts";
import { errorStyle } from "../shared/error-style.ts";
import { DeliveryLog, MachineTokenList } from "../contract/api/apps.ts";
import { DeviceRequest, Interaction, RedirectTo } from "../contract/api/authorization.ts";
import { Ok } from "../contract/api/common.ts";

const JSON_TYPE = "application/json";
/** WebFinger lookups one address may make per minute. */
const WEBFINGER_PER_MINUTE = 30;
/** Signed-out authorization requests one address may start per minute. */
const ANONYMOUS_AUTHORIZE_PER_MINUTE = 60;
/** OIDC RP-Initiated Logout 1.0 section 2 parameters; made per use, as Elysia writes into schemas. */
const endSessionParams = () =>
  t.Object({
    id_token_hint: t.Optional(t.String({ maxLength: 16_384 })),
    client_id: t.Optional(t.String({ maxLength: 200 })),
    post_logout_redirect_uri: t.Optional(t.String({ maxLength: 2048 })),
    state: t.Optional(t.String({ maxLength: 2048 })),
  });
/** `/.well-known/*` is not the OAuth API: the HTTP core's own errors there keep the spec's `{error, code}` shape. */
const wellKnown = () => ({ detail: errorStyle("spec") });
/**
 * The OAuth/OIDC protocol endpoints (their paths are OAUTH_PATHS too, for discovery), discovery,
 * WebFinger, and the interaction and device APIs the sign-in pages call. The 2FA API is
 * 2fa/2fa.routes.ts; every route and its file: docs/routes.md.
 */
export function oauthRoutes(ctx: AppContext) {
  // Discovery documents never change while the process runs: serialized once, served from memory.
  const discovery = JSON.stringify(serverMetadata(ctx.config));
  const resource = JSON.stringify(protectedResourceMetadata(ctx.config));
  const cached = (body: string) => new Response(body, { headers: { "content-type": JSON_TYPE, "cache-control": "public, max-age=300", ...CORS } });
  const redirect = (url: string) => new Response(null, { status: 302, headers: { location: url, "cache-control": "no-store" } });
  const preflight = (path: string) => (CORS_PATHS.includes(path) ? PREFLIGHT.clone() : new Response(null, { status: 404 }));
  const JWKS_HEADERS = { "content-type": "application/jwk-set+json", "cache-control": "public, max-age=300", ...CORS };
  const jwks = (body: string) => new Response(body, { headers: JWKS_HEADERS });
  const sessionFrom = async (request: Request) => {
    const principal = await resolvePrincipal(ctx, request);
    return principal?.kind === "session" ? principal : null;
  };

  // Signed out, an authorization request becomes a pending row until sign-in: gated like every
  // start anyone may make.
  const lookups = ctx.access.windows("webfinger", { max: WEBFINGER_PER_MINUTE, windowMs: 60_000 });
  // Anyone with a public client's id may push or start a device request: each writes a row.
  const mayPush = pushGuard(ctx);
  const mayStartDevice = deviceStartGuard(ctx);
  const spendDeviceGuess = deviceGuessBudget(ctx);
  const mayStart = startGuard(ctx, { perMinute: ANONYMOUS_AUTHORIZE_PER_MINUTE, table: interactions, expiresAt: interactions.expiresAt });

  const authorize = async (request: Request, server: Server<unknown> | null, sent: URLSearchParams) => {
    const client = await findClient(ctx, sent.get("client_id") ?? "");
    let validated: AuthorizeRequest;
    let params = sent;
    try {
      // RFC 9126: a request_uri stands for the parameters its client pushed.
      params = await authorizationParams(ctx, sent, client);
      validated = validateAuthorizeRequest(params, client).request;
    } catch (e) {
      if (!(e instanceof AuthorizeError)) throw e;
      if (!e.redirect) return authorizeErrorPage(e.error, e.description);
      const redirectUri = params.get("redirect_uri") as string;
      return redirect(
        redirectWith(redirectUri, ctx.config.issuer, { error: e.error, error_description: e.description, state: params.get("state") ?? undefined }),
      );
    }
    const session = await sessionFrom(request);
    const wait = session ? null : await mayStart(clientIp(request, server, ctx.config.trustProxy));
    if (wait !== null) return busyPage(wait);
    return nextStep(() => continueAuthorization(ctx, validated, session, null));
  };
  // A person is at these URLs, not the client: errors that cannot go back to it get a page.
  const nextStep = async (step: () => Promise<{ url: string }>) => {
    try {
      return redirect((await step()).url);
    } catch (e) {
      if (e instanceof AppError) return authorizeErrorPage(e.error, e.extra.description ?? e.error);
      throw e;
    }
  };

  return (
    new Elysia({ name: "oauth-routes", detail: errorStyle("rfc6749") })
      .use(authPlugin(ctx))
      .get("/.well-known/openid-configuration", () => cached(discovery), wellKnown())
      .get("/.well-known/oauth-authorization-server", () => cached(discovery), wellKnown())
      .get("/.well-known/oauth-protected-resource", () => cached(resource), wellKnown())
      // Async, so Elysia awaits it: it tells async handlers by their source text, and a promise a
      // handler it takes for synchronous returns would escape the error mapper (a database outage, issue 46).
      .get(
        "/.well-known/jwks.json",
        async () => {
          const body = (await freshKeys(ctx)).jwks;
          return body !== null ? jwks(body) : jwksBody(ctx).then(jwks);
        },
        wellKnown(),
      )
      .get("/api/oauth/jwks/classic", () => classicJwksBody(ctx).then(jwks))
      .options("/api/oauth/:endpoint", ({ path }) => preflight(path))
      .options("/api/oauth/2fa/:endpoint", ({ path }) => preflight(path))
      .get(
        "/.well-known/webfinger",
        async ({ request, server }) => {
          // Each answer tells whether a username exists here: paced per address.
          const wait = await lookups.hit(addressKey(clientIp(request, server, ctx.config.trustProxy)), ctx.clock.now());
          if (wait !== null)
            return Response.json(
              { error: "too_many_requests", error_description: "Too many lookups; try again later." },
              { status: 429, headers: { "retry-after": String(wait) } },
            );
          return webfinger(ctx, new URL(request.url).searchParams);
        },
        wellKnown(),
      )
      .get("/api/oauth/authorize", ({ request, server }) => authorize(request, server, new URL(request.url).searchParams))
      .post("/api/oauth/authorize", ({ request, server, body }) => authorize(request, server, parseForm(request, body)), { parse: "text" })
      .get("/api/oauth/interaction/:id/resume", async ({ request, params }) => {
        const interaction = await findInteraction(ctx, params.id);
        if (!interaction) return authorizeErrorPage("invalid_request", "this sign-in request has expired; start again from the application");
        const session = await sessionFrom(request);
        return nextStep(() => continueAuthorization(ctx, interaction.request as AuthorizeRequest, session, interaction));
      })
      .get("/api/oauth/interaction/:id", ({ principal, params }) => describeInteraction(ctx, params.id, sessionOf(principal)), {
        auth: { session: true },
        response: Interaction,
      })
      .post(
        "/api/oauth/interaction/:id",
        async ({ principal, params, body }) => ({ redirect_to: (await submitDecision(ctx, params.id, principal as SessionPrincipal, body)).url }),
        {
          auth: { session: true },
          parse: "json",
          body: t.Object({
            decision: t.Union([t.Literal("approve"), t.Literal("deny")]),
            team_id: t.Optional(t.String({ maxLength: 64 })),
            confirmation: t.Optional(t.String({ maxLength: 64 })),
          }),
          response: RedirectTo,
        },
      )
      .post(
        "/api/oauth/token",
        async ({ request, body, set }) => {
          Object.assign(set.headers, NO_STORE, nonceHeader(ctx));
          return tokenEndpoint(ctx, request, parseForm(request, body));
        },
        { parse: "text" },
      )
      .post(
        "/api/oauth/par",
        async ({ request, server, body, set }) => {
          Object.assign(set.headers, NO_STORE);
          const form = parseForm(request, body);
          const client = await authenticateClient(ctx, request.headers.get("authorization"), form);
          await mayPush(client, clientIp(request, server, ctx.config.trustProxy));
          const pushed = await pushRequest(ctx, client, form);
          set.status = 201;
          return pushed;
        },
        { parse: "text" },
      )
      .post(
        "/api/oauth/device_authorization",
        async ({ request, server, body, set }) => {
          Object.assign(set.headers, NO_STORE);
          const form = parseForm(request, body);
          const client = await authenticateClient(ctx, request.headers.get("authorization"), form);
          await mayStartDevice(client, clientIp(request, server, ctx.config.trustProxy));
          return startDeviceAuthorization(ctx, client, form);
        },
        { parse: "text" },
      )
      .get(
        "/api/oauth/device/lookup",
        async ({ principal, query, request, server }) => {
          await spendDeviceGuess(principal.user.id, clientIp(request, server, ctx.config.trustProxy));
          return lookupDeviceRequest(ctx, sessionOf(principal), query.user_code);
        },
        { auth: { session: true }, query: t.Object({ user_code: t.String({ maxLength: 32 }) }), response: DeviceRequest },
      )
      .post(
        "/api/oauth/device/decision",
        async ({ principal, body, request, server }) => {
          // The same budget as the lookup: a decision on a wrong code is a guess too.
          await spendDeviceGuess(principal.user.id, clientIp(request, server, ctx.config.trustProxy));
          return decideDeviceRequest(ctx, sessionOf(principal), body.user_code, body.decision);
        },
        {
          auth: { session: true },
          parse: "json",
          body: t.Object({ user_code: t.String({ maxLength: 32 }), decision: t.Union([t.Literal("approve"), t.Literal("deny")]) }),
          response: Ok,
        },
      )
      .get(
        "/api/oauth/end_session",
        async ({ request, query }) => {
          let plan: LogoutPlan;
          try {
            plan = await planLogout(ctx, query);
          } catch (e) {
            if (e instanceof AppError) return logoutErrorPage(e.error, e.extra.description ?? e.error);
            throw e;
          }
          const session = await sessionFrom(request);
          // Without a valid hint naming the signed-in user, a person confirms: no silent sign-out.
          if (!plan.hint || (session !== null && session.user.id !== plan.hint.sub))
            return redirect(confirmationPath({ client_id: plan.clientId, post_logout_redirect_uri: query.post_logout_redirect_uri, state: query.state }));
          const headers = new Headers({ location: plan.redirectTo ?? `${LOGOUT_PAGE}?done=1`, "cache-control": "no-store" });
          if (session) {
            await revokeSession(ctx, session.user.id, session.session.id);
            for (const cookie of signOutCookies(ctx.config)) headers.append("set-cookie", cookie);
          }
          return new Response(null, { status: 302, headers });
        },
        { query: endSessionParams() },
      )
      .post(
        "/api/oauth/end_session",
        async ({ request, body, set }) => {
          const plan = await planLogout(ctx, body);
          const principal = await resolvePrincipal(ctx, request);
          if (principal?.kind === "session") {
            if (principal.viaCookie) assertOrigin(ctx.config, request, "cookie-write");
            await revokeSession(ctx, principal.user.id, principal.session.id);
            set.headers["set-cookie"] = signOutCookies(ctx.config);
          }
          set.headers["cache-control"] = "no-store";
          return { redirect_to: plan.redirectTo ?? `${LOGOUT_PAGE}?done=1` };
        },
        { parse: "json", body: t.Omit(endSessionParams(), ["id_token_hint"]), response: RedirectTo },
      )
      // The app's page shows its owner how back-channel logout deliveries went.
      .get(
        "/api/oauth/me/clients/:clientId/backchannel-deliveries",
        async ({ principal, params }) => ({ deliveries: await deliveryLog(ctx, (await ownedClient(ctx, principal.user.id, params.clientId)).clientId) }),
        { auth: { scope: "apps:read" }, response: DeliveryLog },
      )
      // The app's page lists the tokens it holds for itself (client credentials), never the values.
      .get(
        "/api/oauth/me/clients/:clientId/machine-tokens",
        async ({ principal, params }) => ({ tokens: await listMachineTokens(ctx, (await ownedClient(ctx, principal.user.id, params.clientId)).clientId) }),
        { auth: { scope: "apps:read" }, response: MachineTokenList },
      )
      .post(
        "/api/oauth/introspect",
        async ({ request, body, set }) => {
          Object.assign(set.headers, NO_STORE);
          return introspect(ctx, request.headers.get("authorization"), parseForm(request, body));
        },
        { parse: "text" },
      )
      .post(
        "/api/oauth/revoke",
        async ({ request, body }) => {
          await revoke(ctx, request.headers.get("authorization"), parseForm(request, body));
          return new Response(null, { status: 200, headers: NO_STORE });
        },
        { parse: "text" },
      )
      .all("/api/oauth/userinfo", async ({ request, set }) => {
        const principal = await resolvePrincipal(ctx, request);
        if (principal?.kind !== "access_token") throw notSignedIn("A valid access token is required.", ctx.config.issuer, request.headers.has("authorization"));
        if (!principal.scopes.includes("openid")) throw insufficientScope("openid", ctx.config.issuer);
        Object.assign(set.headers, NO_STORE, nonceHeader(ctx));
        return userInfoClaims(ctx, principal.user, principal.scopes, principal.clientId);
      })
  );
}
