import { Elysia, t } from "elysia";
import { CONFIG_READ, CONFIG_WRITE } from "../../contract/scopes.ts";
import { resolvePrincipal } from "../../access/access.context.ts";
import { authPlugin, sessionOf } from "../../access/access.plugin.ts";
import { clientIp } from "../../access/client-info.ts";
import { cookieHeader, cookieName, readCookie } from "../../access/cookies.ts";
import { startGuard } from "../../access/start-guard.ts";
import type { AppContext } from "../../context/context.ts";
import { busyPage, htmlErrorPage } from "../../shared/error-page.ts";
import { safeReturnTo } from "../../shared/return-to.ts";
import { sessionCookie } from "../sessions/session-cookie.ts";
import { deviceCookie, signingInBrowser } from "../devices/device-cookie.ts";
import { signedInRecently } from "../sessions/sessions.service.ts";
import { badInput } from "../users/identity.errors.ts";
import { createProvider, deleteProvider, listProviders, providerView, publicProviders, updateProvider } from "./providers.service.ts";
import { hasPassword, listSocialAccounts, socialAccountView, unlinkSocialAccount } from "./social-accounts.service.ts";
import { finishSocialSignIn, SOCIAL_COOKIE, SOCIAL_COOKIE_SECONDS, type SocialOutcome, SocialSignInError, startSocialSignIn } from "./social-signin.service.ts";
import { socialLoginStates } from "./social.table.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { LinkedAccounts, LinkStarted } from "../../contract/api/accounts.ts";
import { DeletedIdentityProvider, IdentityProviderAnswer, IdentityProviderList } from "../../contract/api/admin.ts";
import { ProviderButtons } from "../../contract/api/signin.ts";

/** Sign-ins at upstream providers one address may start per minute. */
const STARTS_PER_MINUTE = 30;

const ProviderBody = t.Object({
  slug: t.Optional(t.String({ maxLength: 64 })),
  kind: t.Optional(t.Union([t.Literal("oidc"), t.Literal("github")])),
  name: t.Optional(t.String({ maxLength: 200 })),
  issuer: t.Optional(t.String({ maxLength: 600 })),
  web_url: t.Optional(t.String({ maxLength: 600 })),
  api_url: t.Optional(t.String({ maxLength: 600 })),
  client_id: t.Optional(t.String({ maxLength: 600 })),
  client_secret: t.Optional(t.String({ maxLength: 1000 })),
  scopes: t.Optional(t.String({ maxLength: 2000 })),
  enabled: t.Optional(t.Boolean()),
  trust_email: t.Optional(t.Boolean()),
});

/** Where the browser goes after the callback, with the cookies it gets. */
function answer(ctx: AppContext, outcome: SocialOutcome, device: string): Response {
  const headers = new Headers({ "cache-control": "no-store" });
  headers.append("set-cookie", cookieHeader(ctx.config, SOCIAL_COOKIE, "", 0));
  if (outcome.kind === "session") {
    headers.append("set-cookie", sessionCookie(ctx.config, outcome.token));
    headers.append("set-cookie", deviceCookie(ctx.config, device));
    headers.set("location", outcome.returnTo);
  } else if (outcome.kind === "mfa") {
    // The second step happens on the login page; the ticket rides in the fragment, which no server or Referer sees.
    const fragment = new URLSearchParams({ mfa: outcome.mfaToken, methods: outcome.methods.join(",") });
    headers.set("location", `/login?return_to=${encodeURIComponent(outcome.returnTo)}#${fragment}`);
  } else headers.set("location", outcome.returnTo);
  return new Response(null, { status: 302, headers });
}

/**
 * Signing in with an upstream provider (`/api/auth`): the login page's buttons, the start and the
 * callback. A failure ends on a page that says what happened, with a 4xx status.
 */
export function socialSigninRoutes(ctx: AppContext) {
  const mayStart = startGuard(ctx, { perMinute: STARTS_PER_MINUTE, table: socialLoginStates, expiresAt: socialLoginStates.expiresAt });
  const page = (e: unknown) => {
    if (!(e instanceof SocialSignInError)) throw e;
    return htmlErrorPage(e.status, e.title, e.paragraphs, { "set-cookie": cookieHeader(ctx.config, SOCIAL_COOKIE, "", 0) }, e.detail);
  };

  return new Elysia({ name: "social-signin-routes", detail: errorStyle("rfc6749") })
    .get("/api/auth/providers", async () => ({ providers: await publicProviders(ctx) }), { response: ProviderButtons })
    .get("/api/auth/social/:slug/start", async ({ params, query, request, server }) => {
      const wait = await mayStart(clientIp(request, server, ctx.config.trustProxy));
      if (wait !== null) return busyPage(wait);
      try {
        const returnTo = safeReturnTo(typeof query.return_to === "string" ? query.return_to : undefined, ctx.config.issuer, "/");
        const { location, browser } = await startSocialSignIn(ctx, params.slug, { returnTo, linkUserId: null });
        const headers = { location, "set-cookie": cookieHeader(ctx.config, SOCIAL_COOKIE, browser, SOCIAL_COOKIE_SECONDS), "cache-control": "no-store" };
        return new Response(null, { status: 302, headers });
      } catch (e) {
        return page(e);
      }
    })
    .get("/api/auth/social/:slug/callback", async ({ params, request, server }) => {
      try {
        const principal = await resolvePrincipal(ctx, request);
        const signedIn = principal?.kind === "session" ? principal.user.id : null;
        const url = new URL(request.url);
        // The callback URL as registered (the issuer's origin), whatever Host the request came with.
        const callback = new URL(`${ctx.config.issuer}${url.pathname}${url.search}`);
        const browser = readCookie(request, cookieName(ctx.config, SOCIAL_COOKIE));
        const who = signingInBrowser(ctx.config, request, server);
        const finished = finishSocialSignIn(ctx, params.slug, callback, browser, signedIn, who);
        // A link made from the account page is not a sign-in.
        const outcome = await ctx.metrics.countLogin("social", finished, (o) => (o.kind === "session" ? "success" : o.kind === "mfa" ? "mfa_required" : null));
        return answer(ctx, outcome, who.device);
      } catch (e) {
        return page(e);
      }
    });
}

/** The signed-in person's linked accounts (`/api/oauth/me/social-accounts`; `social:read`, `social:write`). */
export function socialAccountsRoutes(ctx: AppContext) {
  return (
    new Elysia({ name: "social-accounts-routes", detail: errorStyle("rfc6749") })
      .use(authPlugin(ctx))
      .get(
        "/api/oauth/me/social-accounts",
        async ({ principal }) => ({
          social_accounts: (await listSocialAccounts(ctx, principal.user.id)).map(socialAccountView),
          has_password: hasPassword(principal.user),
          providers: await publicProviders(ctx),
        }),
        { auth: { scope: "social:read" }, response: LinkedAccounts },
      )
      .delete(
        "/api/oauth/me/social-accounts/:id",
        async ({ principal, params }) => {
          await unlinkSocialAccount(ctx, principal.user, params.id);
          return { ok: true };
        },
        { auth: { scope: "social:write" }, response: Ok },
      )
      // Linking happens in this browser, signed in: a session only, never an app's token.
      .post(
        "/api/oauth/me/social-accounts/link",
        async ({ principal, body, set }) => {
          const { user, session } = sessionOf(principal);
          if (!signedInRecently(ctx, session))
            throw badInput("Linking an account needs a fresh sign-in: sign out, sign in again, and link it within 10 minutes.");
          try {
            const { location, browser } = await startSocialSignIn(ctx, body.provider, { returnTo: "/account#linked-accounts", linkUserId: user.id });
            set.headers["set-cookie"] = cookieHeader(ctx.config, SOCIAL_COOKIE, browser, SOCIAL_COOKIE_SECONDS);
            return { redirect_to: location };
          } catch (e) {
            if (e instanceof SocialSignInError) throw badInput(`${e.title}. ${e.paragraphs[0] ?? ""}`.trim());
            throw e;
          }
        },
        { auth: { session: true }, parse: "json", body: t.Object({ provider: t.String({ maxLength: 64 }) }), response: LinkStarted },
      )
  );
}

/** Upstream identity providers (`/api/oauth/admin/identity-providers`): admins, or tokens with the config scopes. */
export function identityProvidersAdminRoutes(ctx: AppContext) {
  return new Elysia({ name: "identity-providers-admin-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/admin/identity-providers", async () => ({ providers: await Promise.all((await listProviders(ctx)).map((p) => providerView(ctx, p))) }), {
      auth: { admin: true, scope: CONFIG_READ },
      response: IdentityProviderList,
    })
    .post(
      "/api/oauth/admin/identity-providers",
      async ({ principal, body, set }) => {
        const row = await createProvider(ctx, principal.user.id, body);
        set.status = 201;
        return { provider: await providerView(ctx, row) };
      },
      { auth: { admin: true, scope: CONFIG_WRITE }, parse: "json", body: ProviderBody, response: { 201: IdentityProviderAnswer } },
    )
    .patch(
      "/api/oauth/admin/identity-providers/:id",
      async ({ principal, params, body }) => ({ provider: await providerView(ctx, await updateProvider(ctx, principal.user.id, params.id, body)) }),
      {
        auth: { admin: true, scope: CONFIG_WRITE },
        parse: "json",
        body: ProviderBody,
        response: IdentityProviderAnswer,
      },
    )
    .delete(
      "/api/oauth/admin/identity-providers/:id",
      async ({ principal, params }) => ({ ok: true, ...(await deleteProvider(ctx, principal.user.id, params.id)) }),
      {
        auth: { admin: true, scope: CONFIG_WRITE },
        response: DeletedIdentityProvider,
      },
    );
}

/** Sign-in with upstream providers, linked accounts and their administration, as one plugin. */
export const socialRoutes = (ctx: AppContext) =>
  new Elysia({ name: "social-routes" }).use(socialSigninRoutes(ctx)).use(socialAccountsRoutes(ctx)).use(identityProvidersAdminRoutes(ctx));
