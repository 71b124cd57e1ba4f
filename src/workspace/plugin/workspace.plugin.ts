import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { forbidden } from "../../shared/errors.ts";
import { guardDetail } from "../../shared/guard-detail.ts";
import { recordCaller } from "../members/members.service.ts";
import { syncTeamMembers } from "../members/team-members.service.ts";
import { memberIn, type SessionCaller } from "../permissions/actor.ts";
import { refreshedWsSession, requireWsSession } from "../session/request-session.ts";

/**
 * The workspace macros, which own the caller (spec 2 section 4: "an authenticated session and
 * team membership"): 401 `Unauthorized` without a workspace session, 403 `Forbidden` outside the
 * team or for a write from another site. `workspace: "member"` resolves a MemberActor: their
 * identity is recorded for the team and the team's member list kept in sync, so no route does
 * either by hand. `workspaceSession` resolves a SessionCaller, for what is the user's alone.
 */
export function workspacePlugin(ctx: AppContext) {
  return new Elysia({ name: "workspace-plugin" }).macro({
    workspaceSession: (_: true) => ({
      detail: guardDetail("workspaceSession", true),
      async resolve({ request }) {
        const session = await requireWsSession(ctx, request, "cookie-write");
        const caller: SessionCaller = { kind: "session", session, userId: session.userId };
        return { caller };
      },
    }),
    workspace: (_: "member") => ({
      detail: guardDetail("workspace", "member"),
      async resolve({ request, params }) {
        const session = await requireWsSession(ctx, request, "cookie-write");
        // Elysia has decoded the path parameter already: decoding again would turn `%25` into a crash.
        const teamId = ((params ?? {}) as Record<string, string>).teamId ?? "";
        // A team the session does not list may be one created or joined at the IdP since its last
        // answer: asked now (at most every few seconds) rather than refused for up to a minute.
        const caller = memberIn(session, teamId) ?? memberIn(await refreshedWsSession(ctx, session), teamId);
        if (!caller) throw forbidden("not a member of this team");
        await recordCaller(ctx, caller);
        // In the background, at most every few minutes per team: the member list for assignees
        // and names (the caller's own membership was confirmed just above).
        void syncTeamMembers(ctx, caller);
        return { caller };
      },
    }),
  });
}
