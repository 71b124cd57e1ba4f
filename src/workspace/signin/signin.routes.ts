import { Elysia } from "elysia";
import { assertSameOrigin } from "../../auth/csrf.ts";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../shared/errors.ts";
import { htmlErrorPage } from "../../shared/error-page.ts";
import { WorkspaceNotConfigured } from "./idp-client.ts";
import { endWsSession, finishLogin, findWsSession, meView, startLogin, WS_COOKIE, WS_SESSION_TTL_MS } from "./signin.service.ts";

function wsCookieOf(request: Request): string | null {
  const match = /(?:^|;\s*)cairn_ws=([A-Za-z0-9_-]+)/.exec(request.headers.get("cookie") ?? "");
  return match?.[1] ?? null;
}

/** The workspace signs in through the identity provider as an OIDC relying party (ARCHITECTURE section 4). */
export function workspaceSigninRoutes(ctx: AppContext) {
  const secure = ctx.config.issuer.startsWith("https:") ? "; Secure" : "";
  const cookie = (value: string, maxAge: number) => `${WS_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
  const notConfigured = () =>
    htmlErrorPage(409, "The workspace is not set up yet", ["An administrator finishes the setup wizard first; then sign-in works here."]);

  return new Elysia({ name: "workspace-signin", prefix: "/api/workspace" })
    .get("/login", async ({ query }) => {
      try {
        const location = await startLogin(ctx, typeof query.return_to === "string" ? query.return_to : undefined);
        return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
      } catch (e) {
        if (e instanceof WorkspaceNotConfigured) return notConfigured();
        throw e;
      }
    })
    .get("/callback", async ({ request }) => {
      const url = new URL(request.url);
      if (url.searchParams.get("error")) return htmlErrorPage(400, "Sign-in was not completed", [`The identity provider answered: ${url.searchParams.get("error_description") ?? url.searchParams.get("error")}`]);
      try {
        const { session, returnTo } = await finishLogin(ctx, new URL(`${ctx.config.issuer}${url.pathname}${url.search}`));
        return new Response(null, { status: 302, headers: { location: returnTo, "set-cookie": cookie(session.id, WS_SESSION_TTL_MS / 1000), "cache-control": "no-store" } });
      } catch (e) {
        if (e instanceof WorkspaceNotConfigured) return notConfigured();
        if (e instanceof AppError && e.status === 403) return htmlErrorPage(403, "This workspace is for one team only", ["You signed in, but you are not a member of the team this workspace is for. Ask its owners to add you."]);
        if (e instanceof AppError) return htmlErrorPage(400, "Sign-in could not be completed", ["The sign-in link was used already or has expired. Start again."]);
        throw e;
      }
    })
    .get("/me", ({ request, set }) => {
      const id = wsCookieOf(request);
      const session = id ? findWsSession(ctx, id) : null;
      if (!session) throw new AppError(401, "Unauthorized");
      set.headers["cache-control"] = "no-store";
      return meView(session);
    })
    .post("/logout", ({ request, set }) => {
      assertSameOrigin(ctx.config, request);
      const id = wsCookieOf(request);
      if (id) endWsSession(ctx, id);
      set.headers["set-cookie"] = cookie("", 0);
      return { ok: true };
    });
}
