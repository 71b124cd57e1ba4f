import { Elysia, t } from "elysia";
import { authPlugin, sessionOf } from "../../access/access.plugin.ts";
import { hasScope, type Principal } from "../../access/principal.ts";
import { describeDevice } from "../../access/client-info.ts";
import { listSessions, revokeOtherSessions, revokeSession } from "../sessions/sessions.service.ts";
import type { AppContext } from "../../context/context.ts";
import { missing } from "../users/identity.errors.ts";
import { changePassword, updateProfile } from "./profile.service.ts";
import { userView } from "../users/users.view.ts";
import { DeleteAccountBody, PasswordBody, ProfilePatchBody } from "./me.schemas.ts";
import { deleteOwnAccount } from "./delete-account.service.ts";
import { requestOrigin } from "../notices/notice-origin.ts";
import { cookieHeader, cookieName, readCookie } from "../../access/cookies.ts";
import { clearedSessionCookie } from "../sessions/session-cookie.ts";
import { errorStyle } from "../../shared/error-style.ts";
import { Ok } from "../../contract/api/common.ts";
import { DeviceSessionList, EndedSessions, PasswordChanged, ProfileAnswer } from "../../contract/api/accounts.ts";

/** A session sees the whole profile; a token sees the email only with the `email` scope (spec 1 section 2.3). */
function visibleProfile(principal: Principal) {
  const { email, email_verified, ...rest } = userView(principal.user);
  return hasScope(principal, "email") ? { ...rest, email, email_verified } : rest;
}

/** The workspace's session cookie (workspace/session/ws-cookie.ts), cleared with the account on this host. */
const WORKSPACE_COOKIE = "cairn_ws";

/** Profile, password, sessions and deletion of the signed-in user's account (`/api/oauth/me`). */
export function meRoutes(ctx: AppContext) {
  return new Elysia({ name: "me-routes", detail: errorStyle("rfc6749") })
    .use(authPlugin(ctx))
    .get("/api/oauth/me", ({ principal }) => ({ user: visibleProfile(principal) }), { auth: { scope: "profile" }, response: ProfileAnswer })
    .patch(
      "/api/oauth/me",
      async ({ principal, body, request, server }) => ({
        user: visibleProfile({ ...principal, user: await updateProfile(ctx, principal.user, body, requestOrigin(ctx, request, server)) }),
      }),
      {
        auth: { scope: "profile:write" },
        parse: "json",
        body: ProfilePatchBody,
        response: ProfileAnswer,
      },
    )
    .delete(
      "/api/oauth/me",
      async ({ principal, body, request, server, set }) => {
        const { user, session } = sessionOf(principal);
        await deleteOwnAccount(ctx, user, session, body ?? {}, requestOrigin(ctx, request, server));
        const cleared = [clearedSessionCookie(ctx.config)];
        if (readCookie(request, cookieName(ctx.config, WORKSPACE_COOKIE)) !== null) cleared.push(cookieHeader(ctx.config, WORKSPACE_COOKIE, "", 0));
        set.headers["set-cookie"] = cleared;
        return { ok: true };
      },
      { auth: { session: true }, parse: "json", body: t.Optional(DeleteAccountBody), response: Ok },
    )
    .post(
      "/api/oauth/me/password",
      async ({ principal, body, request, server }) => {
        const { user, session } = sessionOf(principal);
        const { sessionsEnded } = await changePassword(ctx, user, session, body, requestOrigin(ctx, request, server));
        // Said in the answer, so the page can tell the person what else ended.
        return { ok: true, other_sessions_ended: sessionsEnded, app_tokens_revoked: true };
      },
      { auth: { session: true }, parse: "json", body: PasswordBody, response: PasswordChanged },
    )
    .get(
      "/api/oauth/me/sessions",
      async ({ principal }) => {
        const { user, session: current } = sessionOf(principal);
        return {
          sessions: (await listSessions(ctx, user.id)).map((s) => ({
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
      { auth: { session: true }, response: DeviceSessionList },
    )
    .delete(
      "/api/oauth/me/sessions/:sid",
      async ({ principal, params }) => {
        if (!(await revokeSession(ctx, principal.user.id, params.sid))) throw missing("Session");
        return { ok: true };
      },
      { auth: { session: true }, response: Ok },
    )
    .delete(
      "/api/oauth/me/sessions",
      async ({ principal }) => ({ revoked: await revokeOtherSessions(ctx, principal.user.id, sessionOf(principal).session.id) }),
      {
        auth: { session: true },
        response: EndedSessions,
      },
    );
}
