import { Elysia } from "elysia";
import { signinRoutes } from "./identity/signin/signin.routes.ts";
import type { AppContext } from "./context/context.ts";
import { adminRoutes } from "./identity/admin/admin.routes.ts";
import { siteRoutes } from "./identity/admin/site.routes.ts";
import { passwordResetsRoutes } from "./identity/password-resets/password-resets.routes.ts";
import { emailVerificationRoutes } from "./identity/email-verification/email-verification.routes.ts";
import { meRoutes } from "./identity/me/me.routes.ts";
import { teamScopedRoutes } from "./identity/teams/team-scoped.routes.ts";
import { passkeysRoutes } from "./identity/passkeys/passkeys.routes.ts";
import { patsRoutes } from "./identity/pats/pats.routes.ts";
import { teamsRoutes } from "./identity/teams/teams.routes.ts";
import { totpRoutes } from "./identity/totp/totp.routes.ts";
import { healthRoutes } from "./health/health.routes.ts";
import { initRoutes } from "./settings/init/init.routes.ts";
import { bodyDeadline } from "./shared/body-deadline.ts";
import type { Route } from "./shared/error-style.ts";
import { httpErrors } from "./shared/http-errors.ts";
import { requestLog } from "./shared/request-log.ts";
import { jitFromFirstRequest } from "./shared/jit-policy.ts";
import { securityHeaders } from "./shared/security-headers.ts";
import { clientsRoutes } from "./oauth/clients/clients.routes.ts";
import { consentsRoutes } from "./oauth/consents/consents.routes.ts";
import { siteTokensRoutes } from "./oauth/site/site-tokens.routes.ts";
import { registrationRoutes } from "./oauth/clients/registration.routes.ts";
import { oauthRoutes } from "./oauth/oauth.routes.ts";
import { OAUTH_PATHS } from "./oauth/protocol/paths.ts";
import { spaRoutes } from "./spa/spa.routes.ts";
import { shellHints } from "./spa/shell-hints.ts";
import { domainsRoutes } from "./identity/domains/domains.routes.ts";
import { gpgKeysRoutes } from "./identity/gpg-keys/gpg-keys.routes.ts";
import { socialRoutes } from "./identity/social/social.routes.ts";
import { docsRoutes, WEBHOOK_PATH } from "./docs/docs.routes.ts";
import { spaAssets } from "./spa/spa.assets.ts";
import { confirmationPageCsp } from "./oauth/2fa/captcha.ts";
import { TWO_FA_PAGE } from "./oauth/2fa/challenges.service.ts";
import { twoFaRoutes } from "./oauth/2fa/2fa.routes.ts";
import { getSiteConfig } from "./identity/site-config/site-config.ts";
import { commentsRoutes } from "./workspace/comments/comments.routes.ts";
import { setsRoutes } from "./workspace/sets/sets.routes.ts";
import { workspaceSettingsRoutes } from "./workspace/settings/workspace-settings.routes.ts";
import { workspaceSessionRoutes } from "./workspace/session/session.routes.ts";
import { todosRoutes } from "./workspace/todos/todos.routes.ts";
import { shareLinksRoutes } from "./workspace/share-links/share-links.routes.ts";
import { sharedRoutes } from "./workspace/share-links/shared.routes.ts";
import { emailCodeRoutes } from "./workspace/share-links/email-code.routes.ts";
import { noticesRoutes } from "./workspace/notices/notices.routes.ts";
import { sharedSvgRoutes } from "./workspace/share-links/shared-svg.routes.ts";
import { realtimeRoutes } from "./workspace/realtime/realtime.routes.ts";
import { commitBeforeAnswer } from "./db/commit-before-answer.ts";
import { integrationsRoutes } from "./integrations/integrations.routes.ts";
import { mailAdminRoutes } from "./mail/mail-admin.routes.ts";
import { forwardAuthRulesRoutes } from "./forward-auth/rules/rules.routes.ts";
import { forwardAuthCheckRoutes } from "./forward-auth/check/check.routes.ts";
import { forwardAuthTestRoutes } from "./forward-auth/check/rule-test.routes.ts";

/**
 * Composes every product's routes over the shared HTTP core. The SPA catch-all comes last.
 * `normalize: "typebox"` (it must be set here, on the root) makes every schema strict: a body of
 * the wrong shape, such as an array for an object, is a 400, and unknown keys are dropped.
 */
export function createApp(ctx: AppContext) {
  // The test login talks to this very app (its endpoints, in process).
  const handle = (request: Request): Promise<Response> => app.handle(request);
  const app = new Elysia({ name: "cairn", normalize: "typebox" })
    .use(jitFromFirstRequest())
    .use(requestLog(ctx.log, { trustProxy: ctx.config.trustProxy, observe: ctx.metrics.request, perSecond: ctx.config.logRequestsPerSecond }))
    .use(commitBeforeAnswer(ctx.db, READ_ONLY_POSTS))
    .use(securityHeaders(ctx.config.issuer))
    .use(httpErrors(ctx.log, (): readonly Route[] => app.routes))
    .use(bodyDeadline(bodyLimit, ctx.bodyDeadline))
    .use(healthRoutes(ctx))
    .use(signinRoutes(ctx))
    .use(teamsRoutes(ctx))
    .use(teamScopedRoutes(ctx))
    .use(meRoutes(ctx))
    .use(totpRoutes(ctx))
    .use(passkeysRoutes(ctx))
    .use(domainsRoutes(ctx))
    .use(gpgKeysRoutes(ctx))
    .use(socialRoutes(ctx))
    .use(patsRoutes(ctx))
    .use(adminRoutes(ctx))
    .use(passwordResetsRoutes(ctx))
    .use(emailVerificationRoutes(ctx))
    .use(mailAdminRoutes(ctx))
    .use(forwardAuthRulesRoutes(ctx))
    .use(forwardAuthTestRoutes(ctx))
    .use(forwardAuthCheckRoutes(ctx))
    .use(siteRoutes(ctx))
    .use(oauthRoutes(ctx))
    .use(twoFaRoutes(ctx))
    .use(clientsRoutes(ctx))
    .use(consentsRoutes(ctx))
    .use(siteTokensRoutes(ctx))
    .use(registrationRoutes(ctx))
    .use(integrationsRoutes(ctx, handle))
    .use(initRoutes(ctx))
    .use(workspaceSessionRoutes(ctx))
    .use(setsRoutes(ctx))
    .use(todosRoutes(ctx))
    .use(commentsRoutes(ctx))
    .use(workspaceSettingsRoutes(ctx))
    .use(noticesRoutes(ctx))
    .use(realtimeRoutes(ctx))
    .use(shareLinksRoutes(ctx))
    .use(sharedRoutes(ctx))
    .use(emailCodeRoutes(ctx))
    .use(sharedSvgRoutes(ctx))
    .use(docsRoutes(ctx))
    .use(
      spaRoutes(
        ctx.config.issuer,
        spaAssets,
        async (path) => (path === TWO_FA_PAGE ? confirmationPageCsp((await getSiteConfig(ctx)).captcha_provider) : null),
        (request) => shellHints(ctx.config, request),
      ),
    );
  return app;
}

/** POST routes that write nothing of their own (see commitBeforeAnswer). */
const READ_ONLY_POSTS: ReadonlySet<string> = new Set([OAUTH_PATHS.introspection]);

/** No request body is larger than this (1 MiB): bigger ones are refused before they are read... */
export const MAX_BODY_BYTES = 1024 * 1024;
/** ...but a push webhook's: GitHub's deliveries reach 25 MB (a push of many commits). */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;
/** The server's own limit (`maxRequestBodySize`): the largest of the routes' (body-deadline holds each route to its own). */
export const MAX_REQUEST_BYTES = MAX_WEBHOOK_BYTES;
const bodyLimit = (path: string) => (path === WEBHOOK_PATH ? MAX_WEBHOOK_BYTES : MAX_BODY_BYTES);
