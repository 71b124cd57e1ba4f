import { Elysia } from "elysia";
import { authPlugin, sessionOf } from "../../auth/auth.plugin.ts";
import { describeDevice } from "../../auth/client-info.ts";
import { listSessions, revokeOtherSessions, revokeSession } from "../../auth/sessions.service.ts";
import type { AppContext } from "../../context.ts";
import { missing } from "../identity.errors.ts";
import { changePassword, updateProfile } from "../users/profile.service.ts";
import { userView } from "../users/users.view.ts";
import { PasswordBody, ProfilePatchBody } from "./me.schemas.ts";

/** Profile, password and sessions of the signed-in user (`/api/oauth/me`). */
export function meRoutes(ctx: AppContext) {
  return new Elysia({ name: "me-routes", prefix: "/api/oauth/me" })
    .use(authPlugin(ctx))
    .get("", ({ principal }) => ({ user: userView(principal.user) }), { auth: { scope: "profile" } })
    .patch("", ({ principal, body }) => ({ user: userView(updateProfile(ctx, principal.user, body)) }), {
      auth: { scope: "profile:write" },
      parse: "json",
      body: ProfilePatchBody,
    })
    .post(
      "/password",
      async ({ principal, body }) => {
        const { user, session } = sessionOf(principal);
        await changePassword(ctx, user, session.id, body);
        return { ok: true };
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
    .delete(
      "/sessions",
      ({ principal }) => ({ revoked: revokeOtherSessions(ctx, principal.user.id, sessionOf(principal).session.id) }),
      { auth: { session: true } },
    );
}
