import { Elysia } from "elysia";
import { assertSameOrigin } from "../../auth/csrf.ts";
import type { AppContext } from "../../context.ts";
import { forbidden, unauthorized } from "../../shared/errors.ts";
import { syncTeamMembers } from "../members/team-members.service.ts";
import { findWsSession } from "./signin.service.ts";
import type { WsSessionRow } from "./signin.table.ts";

export type WorkspaceRole = "owner" | "co-owner" | "admin" | "member";

/** Who calls a workspace endpoint: the signed-in user and, for a `:teamId` route, their role there. */
export type WorkspaceCaller = { session: WsSessionRow; userId: string; teamId: string; role: WorkspaceRole };

export function wsSessionId(request: Request): string | null {
  return /(?:^|;\s*)cairn_ws=([A-Za-z0-9_-]+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? null;
}

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
      resolve({ request, params }) {
        const id = wsSessionId(request);
        const session = id ? findWsSession(ctx, id) : null;
        if (!session) throw unauthorized("no workspace session");
        assertSameOriginAsApp(ctx, request);
        // Elysia has decoded the path parameter already: decoding again would turn `%25` into a crash.
        const teamId = ((params ?? {}) as Record<string, string>).teamId ?? "";
        const role = need === "member" ? roleIn(session, teamId) : "member";
        if (role === null) throw forbidden("not a member of this team");
        const caller: WorkspaceCaller = { session, userId: session.userId, teamId, role };
        // In the background, at most every few minutes per team: the IdP's member list also
        // updates live sessions, so a member removed at the IdP loses the workspace too.
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
