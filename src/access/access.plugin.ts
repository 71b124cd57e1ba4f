import { Elysia } from "elysia";
import type { AppContext } from "../context/context.ts";
import { denied, insufficientScope, notSignedIn, type StepUp, stepUpRequired } from "./access.errors.ts";
import { cookieName, readCookie, SESSION_COOKIE } from "./cookies.ts";
import { assertOrigin } from "./csrf.ts";
import { hasAnyScope, hasScope, type Principal, type SessionPrincipal } from "./principal.ts";
import { resolvePrincipal } from "./access.context.ts";
import { guardDetail } from "../shared/guard-detail.ts";

export type AuthNeed = {
  /**
   * The scope a token must hold; a session holds every scope of its user. A list names
   * alternatives, any one of which will do (`admin:users:read` or the site tier's `site:user:read`).
   */
  scope?: string | readonly string[];
  /** Only a signed-in session (not a token) may call: passwords, factors, sessions, tokens. */
  session?: boolean;
  /** Only site admins. */
  admin?: boolean;
  /** A single-team permission: a token needs `team:<teamId>:<permission>` for the `:teamId` in the path. */
  team?: string;
  /** RFC 9470: a token must come from a sign-in with this `acr`, or no older than `maxAge` seconds. */
  stepUp?: StepUp;
};

/**
 * The `auth` macro: a route that names it gets `principal`, or the caller gets 401
 * with a Bearer challenge, 403 insufficient_scope, or 403 for a cross-site cookie write.
 */
export function authPlugin(ctx: AppContext) {
  return new Elysia({ name: "auth" }).macro({
    auth: (need: AuthNeed | true) => ({
      detail: guardDetail("auth", need),
      async resolve({ request, set, params }) {
        const opts: AuthNeed = need === true ? {} : need;
        const principal = await resolvePrincipal(ctx, request);
        // RFC 6750 section 3.1: no error code when the request carried no credential at all.
        const presented = request.headers.has("authorization") || readCookie(request, cookieName(ctx.config, SESSION_COOKIE)) !== null;
        if (principal === null) throw notSignedIn(undefined, ctx.config.issuer, presented);
        if (principal.kind === "session" && principal.viaCookie) {
          assertOrigin(ctx.config, request, "cookie-write");
          // The session slid: the browser's cookie gets a fresh Max-Age to match.
          if (principal.renewCookie) set.headers["set-cookie"] = principal.renewCookie;
        }
        if (opts.session && principal.kind !== "session") throw denied("This needs a signed-in session, not a token.");
        if (opts.admin && principal.user.role !== "admin") throw denied("Only administrators may do this.");
        // RFC 9470: an app's token for admin work must come from a sign-in with a second factor.
        const stepUp = opts.admin && (await ctx.access.adminNeedsSecondFactor()) ? { acr: "mfa" as const, ...opts.stepUp } : opts.stepUp;
        if (stepUp && principal.kind === "access_token" && !meets(principal, stepUp, ctx.clock.now())) throw stepUpRequired(ctx.config.issuer, stepUp);
        if (opts.scope !== undefined && !hasAnyScope(principal, opts.scope)) throw insufficientScope(opts.scope, ctx.config.issuer);
        // Spec 1 section 2.3 rule 7: a token bound to team A gets 403 insufficient_scope on team B.
        const bound = opts.team && `team:${(params as Record<string, string>).teamId}:${opts.team}`;
        if (bound && !hasScope(principal, bound)) throw insufficientScope(bound, ctx.config.issuer);
        return { principal };
      },
    }),
  });
}

/** Whether a token's sign-in meets a step-up demand: the `acr` asked for, and recent enough. */
function meets(principal: Extract<Principal, { kind: "access_token" }>, need: StepUp, now: number): boolean {
  if (need.acr && principal.acr !== need.acr) return false;
  return need.maxAge === undefined || Math.floor(now / 1000) - principal.authTime <= need.maxAge;
}

/** Narrows a principal the `session: true` macro option already guaranteed. */
export function sessionOf(principal: Principal): SessionPrincipal {
  if (principal.kind !== "session") throw denied("This needs a signed-in session, not a token.");
  return principal;
}
