import { Elysia } from "elysia";
import { clientIp } from "../../access/client-info.ts";
import { cookieHeader } from "../../access/cookies.ts";
import { assertOrigin } from "../../access/csrf.ts";
import { startGuard } from "../../access/start-guard.ts";
import type { AppContext } from "../../context/context.ts";
import { WorkspaceLogout, WorkspaceMe } from "../../contract/api/workspace.ts";
import { AppError } from "../../shared/errors.ts";
import { busyPage, htmlErrorPage } from "../../shared/error-page.ts";
import { WorkspaceNotConfigured } from "./idp-client.ts";
import { endWsSession, finishLogin, meView, startLogin, WS_SESSION_TTL_MS } from "./session.service.ts";
import { wsLoginStates } from "../storage/session.table.ts";
import { requireWsSession } from "./request-session.ts";
import { idpLogoutUrl } from "./idp-logout.ts";
import { WS_COOKIE, wsCookieOf } from "./ws-cookie.ts";

/** Sign-ins one address may start per minute: far above a person's, far below a flood's. */
const LOGINS_PER_MINUTE = 30;

/** The workspace signs in through the identity provider as an OIDC relying party (ARCHITECTURE section 4). */
export function workspaceSessionRoutes(ctx: AppContext) {
  const cookie = (value: string, maxAge: number) => cookieHeader(ctx.config, WS_COOKIE, value, maxAge);
  const notConfigured = () =>
    htmlErrorPage(409, "The workspace is not set up yet", [
      "An administrator finishes the setup wizard at /setup first; then sign-in works here.",
      "Already set up? Its owners connect the workspace under Settings → Workspace connection (/settings).",
    ]);
  // The IdP is another service: when it cannot be reached the person gets a page saying so, and
  // the status stays a 4xx (RFC 4918 424: the request depended on another that failed).
  const idpUnreachable = (e: unknown) => {
    ctx.log.warn("workspace sign-in: the identity provider could not be reached", { error: (e as Error).message });
    return htmlErrorPage(424, "The identity provider cannot be reached", [
      "The workspace signs you in through its identity provider, which did not answer. Try again in a moment; if it persists, tell the administrator.",
    ]);
  };
  const mayStart = startGuard(ctx, { perMinute: LOGINS_PER_MINUTE, table: wsLoginStates, expiresAt: wsLoginStates.expiresAt });

  return new Elysia({ name: "workspace-session-routes" })
    .get("/api/workspace/login", async ({ query, request, server }) => {
      const wait = await mayStart(clientIp(request, server, ctx.config.trustProxy));
      if (wait !== null) return busyPage(wait);
      try {
        const location = await startLogin(ctx, typeof query.return_to === "string" ? query.return_to : undefined);
        return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
      } catch (e) {
        if (e instanceof WorkspaceNotConfigured) return notConfigured();
        return idpUnreachable(e);
      }
    })
    .get("/api/workspace/callback", async ({ request }) => {
      const url = new URL(request.url);
      if (url.searchParams.get("error"))
        return htmlErrorPage(400, "Sign-in was not completed", [
          `The identity provider answered: ${url.searchParams.get("error_description") ?? url.searchParams.get("error")}`,
        ]);
      try {
        const { cookie: value, returnTo } = await finishLogin(ctx, new URL(`${ctx.config.issuer}${url.pathname}${url.search}`));
        return new Response(null, {
          status: 302,
          headers: { location: returnTo, "set-cookie": cookie(value, WS_SESSION_TTL_MS / 1000), "cache-control": "no-store" },
        });
      } catch (e) {
        if (e instanceof WorkspaceNotConfigured) return notConfigured();
        if (e instanceof AppError && e.status === 403)
          return htmlErrorPage(403, "This workspace is for one team only", [
            "You signed in, but you are not a member of the team this workspace is for. Ask its owners to add you.",
          ]);
        if (e instanceof AppError)
          return htmlErrorPage(400, "Sign-in could not be completed", ["The sign-in link was used already or has expired. Start again."]);
        return idpUnreachable(e);
      }
    })
    .get(
      "/api/workspace/me",
      async ({ request, set }) => {
        // Teams as the IdP says now: the workspace's page load asks for an answer a few seconds old
        // at most, so a team created or joined there shows at once (session-check.ts).
        const session = await requireWsSession(ctx, request, "cookie-write", { fresh: true });
        set.headers["cache-control"] = "no-store";
        return meView(session);
      },
      { response: WorkspaceMe },
    )
    .post(
      "/api/workspace/logout",
      async ({ request, set }) => {
        assertOrigin(ctx.config, request, "cookie-write");
        const id = wsCookieOf(ctx, request);
        const ended = id ? await endWsSession(ctx, id) : null;
        set.headers["set-cookie"] = cookie("", 0);
        set.headers["cache-control"] = "no-store";
        // One Sign out ends both: the browser goes on to the IdP's logout (issue 42).
        return { ok: true as const, redirect_to: ended ? await idpLogoutUrl(ctx, ended) : null };
      },
      { response: WorkspaceLogout },
    );
}
