import { Elysia } from "elysia";
import { authPlugin, sessionOf } from "../../auth/auth.plugin.ts";
import { hasScope, type Principal } from "../../auth/principal.ts";
import { describeDevice } from "../../auth/client-info.ts";
import { listSessions, revokeOtherSessions, revokeSession } from "../sessions/sessions.service.ts";
import type { AppContext } from "../../context/context.ts";
import { missing } from "../users/identity.errors.ts";
import { changePassword, updateProfile } from "./profile.service.ts";
import { userView } from "../users/users.view.ts";
import { PasswordBody, ProfilePatchBody } from "./me.schemas.ts";

/** A session sees the whole profile; a token sees the email only with the `email` scope (spec 1 section 2.3). */
function visibleProfile(principal: Principal) {
  const { email, email_verified, ...rest } = userView(principal.user);
  return hasScope(principal, "email") ? { ...rest, email, email_verified } : rest;
}

/** Profile, password and sessions of the signed-in user (`/api/oauth/me`). */
export function meRoutes(ctx: AppContext) {
  return new Elysia({ name: "me-routes", prefix: "/api/oauth/me" })
    .use(authPlugin(ctx))
    .get("", ({ principal }) => ({ user: visibleProfile(principal) }), { auth: { scope: "profile" } })
    .patch("", ({ principal, body }) => ({ user: visibleProfile({ ...principal, user: updateProfile(ctx, principal.user, body) }) }), {
      auth: { scope: "profile:write" },
      parse: "json",
      body: ProfilePatchBody,
    })
    .post(
      "/password",
      async ({ principal, body }) => {
        const { user, session } = sessionOf(principal);
        const { sessionsEnded } = await changePassword(ctx, user, session, body);
        // Said in the answer, so the page can tell the person what else ended.
        return { ok: true, other_sessions_ended: sessionsEnded, app_tokens_revoked: true };
      },
      { auth: { session: true }, parse: "json", body: PasswordBody },
    )
    .get(
      "/sessions",
      ({ principal }) => {
        const { user, session: current } = sessionOf(principal);
        return {
          sessions: listSessions(ctx, user.id).map((s) => ({
            sid: s.id,
            current: s.id === current.id,
            device: describeDevice(s.userAgent),
            user_agent: s.userAgent,
            ip: s.ip,
            created_at: s.createdAt,
            last_seen_at: s.lastSeenAt,
            expires_at: s.expiresAt,
            amr: s.amr,
          })),
        };
      },
      { auth: { session: true } },
    )
    .delete(
      "/sessions/:sid",
      ({ principal, params }) => {
        if (!revokeSession(ctx, principal.user.id, params.sid)) throw missing("Session");
        return { ok: true };
      },
      { auth: { session: true } },
    )
    .delete("/sessions", ({ principal }) => ({ revoked: revokeOtherSessions(ctx, principal.user.id, sessionOf(principal).session.id) }), {
      auth: { session: true },
    });
}
