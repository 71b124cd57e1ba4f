import { type Context, Elysia, t } from "elysia";
import { authzCookieHeader, authzCookieName } from "../../access/authz-cookie.ts";
import { resolvePrincipal } from "../../access/access.context.ts";
import { readCookie } from "../../access/cookies.ts";
import type { AppContext } from "../../context/context.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { AppError } from "../../shared/errors.ts";
import { answerCheck, type Flavour } from "./check.answers.ts";
import { checkRequest } from "./check.service.ts";
import { noSecondFactorPage, notProtectedAppPage } from "./continue.pages.ts";
import { continueToApp } from "./continue.service.ts";
import { fromForwardedHeaders, fromOriginalUrl, type ProtectedRequest } from "./forwarded-request.ts";
import { whenKept } from "../../db/table-version.ts";

const ContinueQuery = t.Object({ url: t.String({ maxLength: 8192 }) });

/**
 * Forward auth's endpoints (issue 45): the check, one per kind of proxy, answered on every proxied
 * request (no JSON, no database read while nothing changed, no log line beyond the sampled one),
 * and `continue`, which a browser opens after signing in to get back to its app with the cookie.
 */
export function forwardAuthCheckRoutes(ctx: AppContext) {
  // Only `request` and `set` are named: a handler that takes Elysia's whole context makes it parse every cookie first.
  const check =
    (flavour: Flavour, read: (headers: Headers) => ProtectedRequest) =>
    ({ request, set }: Pick<Context, "request" | "set">) => {
      const target = read(request.headers);
      return whenKept(checkRequest(ctx, target, request), (outcome) => answerCheck(set, ctx.config.issuer, outcome, target.url, flavour));
    };
  return new Elysia({ name: "forward-auth-check-routes", detail: errorStyle("rfc6749") })
    .get("/api/authz/forward-auth", check("forward-auth", fromForwardedHeaders))
    .get("/api/authz/auth-request", check("auth-request", fromOriginalUrl))
    .get(
      "/api/authz/continue",
      async ({ request, query }) => {
        const principal = await resolvePrincipal(ctx, request);
        const session = principal?.kind === "session" && principal.viaCookie ? principal : null;
        let step: Awaited<ReturnType<typeof continueToApp>>;
        try {
          step = await continueToApp(ctx, query.url, session, readCookie(request, authzCookieName(ctx.config)));
        } catch (e) {
          // A person's browser came here: a page, not JSON, unless the caller asked for JSON.
          if (e instanceof AppError && request.headers.get("accept")?.includes("text/html")) return notProtectedAppPage(e.extra.description ?? e.error);
          throw e;
        }
        if (step.kind === "no_second_factor") return noSecondFactorPage();
        const headers = new Headers({ location: step.location });
        if (step.mint) headers.append("set-cookie", authzCookieHeader(ctx.config, step.mint.token, step.mint.maxAgeSeconds));
        if (session?.renewCookie) headers.append("set-cookie", session.renewCookie);
        return new Response(null, { status: 302, headers });
      },
      { query: ContinueQuery },
    );
}
