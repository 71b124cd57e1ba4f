import { Elysia } from "elysia";
import { cookieName, readCookie } from "../../auth/cookies.ts";
import { assertSameOrigin } from "../../auth/csrf.ts";
import type { AppContext } from "../../context/context.ts";
import { forbidden, unauthorized } from "../../shared/errors.ts";
import { syncTeamMembers } from "../members/team-members.service.ts";
import { confirmedSession } from "./session-check.ts";
import { findWsSession } from "./signin.service.ts";
import type { WsSessionRow } from "./signin.table.ts";

export type WorkspaceRole = "owner" | "co-owner" | "admin" | "member";

/** Who calls a workspace endpoint: the signed-in user and, for a `:teamId` route, their role there. */
export type WorkspaceCaller = { session: WsSessionRow; userId: string; teamId: string; role: WorkspaceRole };

/** The workspace's own session cookie (ARCHITECTURE section 4, "Workspace sign-in"). */
export const WS_COOKIE = "cairn_ws";

/** The value of the request's `cairn_ws` cookie, or null. */
export const wsCookieOf = (ctx: Pick<AppContext, "config">, request: Request): string | null => readCookie(request, cookieName(ctx.config, WS_COOKIE));

/**
 * The caller's role in a workspace: from the teams the IdP named at sign-in, or owner of their
 * own `personal:<userId>` space. Null when they are not a member.
 */
export function roleIn(session: WsSessionRow, teamId: string): WorkspaceRole | null {
  if (teamId.startsWith("personal:")) return teamId === `personal:${session.userId}` ? "owner" : null;
  const role = session.teams.find((t) => t.id === teamId)?.role;
  return role === "owner" || role === "co-owner" || role === "admin" || role === "member" ? role : null;
}

/**
 * The `workspace` macro (spec 2 section 4: "an authenticated session and team membership"):
 * 401 `Unauthorized` without a workspace session, 403 `Forbidden` outside the team. Writes
 * must come from our own pages (the session is a cookie).
 */
export function workspaceAuth(ctx: AppContext) {
  return new Elysia({ name: "workspace-auth" }).macro({
    workspace: (need: "session" | "member") => ({
      async resolve({ request, params }) {
        const cookie = wsCookieOf(ctx, request);
        const found = cookie ? findWsSession(ctx, cookie) : null;
        if (!found) throw unauthorized("no workspace session");
        assertSameOriginAsApp(ctx, request);
        // The IdP governs who is a member: confirmed at least once a minute (session-check.ts).
        const session = await confirmedSession(ctx, found);
        if (!session) throw unauthorized("the identity provider ended this session");
        // Elysia has decoded the path parameter already: decoding again would turn `%25` into a crash.
        const teamId = ((params ?? {}) as Record<string, string>).teamId ?? "";
        const role = need === "member" ? roleIn(session, teamId) : "member";
        if (role === null) throw forbidden("not a member of this team");
        const caller: WorkspaceCaller = { session, userId: session.userId, teamId, role };
        // In the background, at most every few minutes per team: the team's member list for
        // assignees and names (the caller's own membership is confirmed just above).
        if (need === "member") void syncTeamMembers(ctx, caller);
        return { caller };
      },
    }),
  });
}

function assertSameOriginAsApp(ctx: AppContext, request: Request): void {
  try {
    assertSameOrigin(ctx.config, request);
  } catch {
    throw forbidden("cross-site write refused");
  }
}
